package dev.idxkit.core.spi;

import dev.idxkit.core.internal.io.PageFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * How the store and the rebuilder open the channels of their files: area page files ({@link
 * PageFile}), the write-ahead log, the meta file and the rebuilder's sort runs. Every positional
 * write, read, {@code force} and {@code truncate} on those files goes through a channel this
 * returns.
 *
 * <p>Why it exists: fault injection. Tests pass an implementation that wraps the real channel and
 * fails on purpose - short writes, an {@code IOException} after N bytes, an fsync that fails,
 * {@code No space left on device}, bit flips in what a read returns - so that what happens when the
 * disk misbehaves is tested, not hoped for. It travels explicitly in the options ({@code
 * StoreOptions.fileIo}), never through a static switch.
 *
 * <p>Cost in production: {@link #DEFAULT} returns the JDK's own {@link FileChannel}, so the only
 * price is one interface call per file open; reads and writes are the JDK's, with no wrapper and no
 * check in between.
 *
 * <p>Not covered: the pages {@link PageFile} reads through its memory mapping (Chronicle Bytes maps
 * the file itself; a damaged page is simulated by damaging the file, which is what a bit flip on
 * the device would do), the lock file, and files the loader and the command line open (inputs,
 * reject files, reports).
 */
@FunctionalInterface
public interface FileIo {
  /**
   * The real thing: {@link FileChannel#open(Path, Set, java.nio.file.attribute.FileAttribute[])}.
   */
  FileIo DEFAULT = FileChannel::open;

  /** Opens {@code path} with {@code options}, as {@link FileChannel#open} does. */
  FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;
}
