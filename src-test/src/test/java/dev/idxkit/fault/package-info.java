/**
 * Fault injection: a disk that misbehaves on purpose, through the store's and the rebuilder's I/O
 * seam ({@link dev.idxkit.core.spi.FileIo}, given to a database with {@code
 * DatabaseOptions.withFileIo}; a rebuild of that database uses it for its sort files).
 *
 * <p>{@link dev.idxkit.fault.FaultyFileIo} wraps every channel it opens; {@link
 * dev.idxkit.fault.Fault} says what goes wrong and for which files: short writes, an {@code
 * IOException} after N bytes, disk full, a failing fsync, bit flips and errors on read. The tests:
 * {@link dev.idxkit.fault.WriteFaultTest} (a commit or checkpoint whose writes fail; short writes),
 * {@link dev.idxkit.fault.FsyncFaultTest} (fsync failures at commit, checkpoint and close), {@link
 * dev.idxkit.fault.DiskFullTest} (a bulk load, a rebuild's tree writes and its sort files running
 * out of disk; the {@code .srt} limits running out). {@link dev.idxkit.fault.ModelTable} is the
 * table and model they share. Corrupted files (bits flipped on disk) are the corruption sweep's
 * subject ({@code dev.idxkit.corrupt}).
 */
package dev.idxkit.fault;
