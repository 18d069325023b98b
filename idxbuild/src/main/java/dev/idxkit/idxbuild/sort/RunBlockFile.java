package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.IdxkitIOException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * The files of one {@link Run} as seen by one {@link RunReader}: opens each segment on first use,
 * reads a block with positional reads, and checks it against the {@link RunFormat} header rules and
 * the run's sparse index before anyone decodes it. Owns the open files until {@link #close()}.
 */
final class RunBlockFile {
  private final Run run;
  private final FileChannel[] channels;
  private final Object channelLock = new Object();
  private boolean channelsClosed;

  RunBlockFile(Run run) {
    this.run = run;
    this.channels = new FileChannel[run.segments().size()];
  }

  /**
   * Reads block {@code b} into {@code dst} and checks it: the whole block is there (else
   * truncated), magic, version, flags, reserved bytes, entry count and payload length match the
   * sparse index, and the CRC32C matches. Thread-safe: prefetch threads read different blocks into
   * different buffers at once.
   */
  void read(int b, byte[] dst) {
    int len = run.blockLength(b);
    long at = run.blockOffset(b);
    Path file = fileOf(b);
    ByteBuffer bb = ByteBuffer.wrap(dst, 0, len);
    try {
      FileChannel ch = channel(run.blockSegment(b));
      while (bb.hasRemaining()) {
        if (ch.read(bb, at + bb.position()) < 0) {
          throw new CorruptRunException(
              file,
              at,
              "truncated: the block has "
                  + len
                  + " bytes, the file ends after "
                  + bb.position()
                  + " of them");
        }
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read sort run block at offset " + at + " of " + file, e);
    }
    if (RunFormat.readInt(dst, 0) != RunFormat.MAGIC) {
      throw new CorruptRunException(
          file,
          at,
          String.format(
              "bad magic 0x%08x (expected: 0x%08x)", RunFormat.readInt(dst, 0), RunFormat.MAGIC));
    }
    if (dst[4] != RunFormat.VERSION || dst[5] != 0 || dst[6] != 0 || dst[7] != 0) {
      throw new CorruptRunException(
          file,
          at,
          "format version "
              + dst[4]
              + ", flags "
              + dst[5]
              + ", reserved "
              + ((dst[6] & 0xFF) << 8 | dst[7] & 0xFF)
              + " (expected: version "
              + RunFormat.VERSION
              + ", flags 0, reserved 0)");
    }
    int count = RunFormat.readInt(dst, 8);
    if (count != run.blockEntryCount(b)) {
      throw new CorruptRunException(
          file, at, "entry count " + count + " (expected: " + run.blockEntryCount(b) + ")");
    }
    int payload = RunFormat.readInt(dst, 12);
    if (payload != len - RunFormat.HEADER) {
      throw new CorruptRunException(
          file, at, "payload length " + payload + " (expected: " + (len - RunFormat.HEADER) + ")");
    }
    int stored = RunFormat.readInt(dst, RunFormat.CRC_OFFSET);
    int actual = RunFormat.crc(dst, payload);
    if (stored != actual) {
      throw new CorruptRunException(
          file,
          at,
          String.format("checksum mismatch (expected: 0x%08x, actual: 0x%08x)", stored, actual));
    }
  }

  private FileChannel channel(int segment) throws IOException {
    synchronized (channelLock) {
      if (channelsClosed) {
        throw new IOException("run reader closed");
      }
      FileChannel c = channels[segment];
      if (c == null) {
        c =
            run.space()
                .io()
                .open(run.segments().get(segment).path(), Set.of(StandardOpenOption.READ));
        channels[segment] = c;
      }
      return c;
    }
  }

  /** Closes every file opened; later reads fail. Idempotent. */
  void close() {
    IOException failure = null;
    Path failed = null;
    synchronized (channelLock) {
      channelsClosed = true;
      for (int i = 0; i < channels.length; i++) {
        if (channels[i] != null) {
          try {
            channels[i].close();
          } catch (IOException e) {
            if (failure == null) {
              failure = e;
              failed = run.segments().get(i).path();
            }
          }
          channels[i] = null;
        }
      }
    }
    if (failure != null) {
      throw new IdxkitIOException("cannot close sort run file " + failed, failure);
    }
  }

  Path fileOf(int b) {
    return run.segments().get(run.blockSegment(b)).path();
  }
}
