package dev.idxkit.loader.input;

import dev.idxkit.core.IdxkitIOException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * A window sliding forward over a file, for the chunkers of the text sources: {@code buf()[0,
 * length())} holds the file's bytes at {@code [offset(), offset() + length())}.
 *
 * <p>A chunker {@link #fill()}s the window, finds the last record boundary in it, and {@link
 * #take(int)}s the bytes before that boundary as a chunk. Taking hands the array itself to the
 * chunk - no copy of the chunk's bytes - and continues in a fresh array that starts with the
 * partial record that was left over (the only bytes copied). So every chunk owns its bytes and
 * parses on any thread while the window reads on.
 *
 * <p>Reads are positional ({@link FileChannel#read(ByteBuffer, long)}), so a window can start at
 * any offset: that is how a source resumes.
 *
 * <p>Arrays of the base size come back through {@link #recycle} once their chunk has been parsed,
 * and {@code take} reuses them: a load of 780 MB in 1 MiB chunks otherwise allocated 780 fresh
 * arrays, each one (larger than half a G1 region) placed outside the young generation in memory the
 * process had often never touched, so every chunk cost the loading thread a 1 MiB clear and 256
 * page faults. At most {@value #SPARE} arrays wait for reuse; the rest are collected.
 */
final class FileWindow implements AutoCloseable {
  private static final int SPARE = 8;

  private final Path file;
  private final ArrayDeque<byte[]> spare = new ArrayDeque<>(); // guarded by itself
  private final FileChannel channel;
  private final int baseCapacity;
  private byte[] buf;
  private int length;
  private long offset;
  private boolean eof;

  FileWindow(Path file, long start, int capacity) {
    this.file = file;
    try {
      this.channel = FileChannel.open(file, StandardOpenOption.READ);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot open " + file, e);
    }
    this.baseCapacity = capacity;
    this.buf = new byte[capacity];
    this.offset = start;
  }

  byte[] buf() {
    return buf;
  }

  int length() {
    return length;
  }

  /** File offset of {@code buf()[0]}. */
  long offset() {
    return offset;
  }

  int capacity() {
    return buf.length;
  }

  /** True once the window holds the file's last byte: no bytes exist past {@code length()}. */
  boolean eof() {
    return eof;
  }

  long fileSize() {
    try {
      return channel.size();
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read the size of " + file, e);
    }
  }

  /** Reads until the window is full or the file ends. */
  void fill() {
    try {
      while (length < buf.length && !eof) {
        int n = channel.read(ByteBuffer.wrap(buf, length, buf.length - length), offset + length);
        if (n < 0) {
          eof = true;
        } else {
          length += n;
        }
      }
      // A full window may end exactly at the end of the file: say so, so that a record ending at
      // the end of the file without a line break is complete rather than waiting for more.
      if (!eof && offset + length >= channel.size()) {
        eof = true;
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read " + file + " at offset " + (offset + length), e);
    }
  }

  /** Enlarges the window (for a record longer than it) and fills it. */
  void grow(int capacity) {
    if (capacity > buf.length) {
      buf = Arrays.copyOf(buf, capacity);
    }
    fill();
  }

  /**
   * Gives {@code buf()[0, n)} away (the caller now owns the returned array, whose first {@code n}
   * bytes are the data) and moves the window on by {@code n}.
   */
  byte[] take(int n) {
    byte[] taken = buf;
    int rest = length - n;
    // Back to the base size once a long record has passed.
    byte[] next = null;
    if (rest <= baseCapacity) {
      synchronized (spare) {
        next = spare.poll();
      }
    }
    buf = next != null ? next : new byte[Math.max(baseCapacity, rest)];
    System.arraycopy(taken, n, buf, 0, rest);
    length = rest;
    offset += n;
    return taken;
  }

  /**
   * Gives back an array {@link #take} returned, once nothing refers to it any more, for a later
   * take to fill again. Any thread; an array of another size than the base is left to the
   * collector.
   */
  void recycle(byte[] taken) {
    if (taken.length != baseCapacity) {
      return;
    }
    synchronized (spare) {
      if (spare.size() < SPARE) {
        spare.push(taken);
      }
    }
  }

  /** Discards {@code buf()[0, n)}. */
  void drop(int n) {
    System.arraycopy(buf, n, buf, 0, length - n);
    length -= n;
    offset += n;
  }

  /**
   * Discards bytes up to and including the next line break, reading as far as needed; for a record
   * too long to hold. A line break is LF, CRLF, or (if {@code crEndsLine}, as in CSV) a lone CR.
   * Returns true if a line break was found, false if the file ended first.
   */
  boolean dropThroughLineBreak(boolean crEndsLine) {
    while (true) {
      int i = 0;
      while (i < length && buf[i] != '\n' && !(crEndsLine && buf[i] == '\r')) {
        i++;
      }
      if (i == length) {
        drop(length);
        if (eof) {
          return false;
        }
        fill();
        continue;
      }
      if (buf[i] == '\r') {
        if (i + 1 == length && !eof) {
          drop(i); // keep the CR: is it followed by an LF?
          fill();
          continue;
        }
        drop(i + 1 < length && buf[i + 1] == '\n' ? i + 2 : i + 1);
      } else {
        drop(i + 1);
      }
      return true;
    }
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new IdxkitIOException("cannot close " + file, e);
    }
  }
}
