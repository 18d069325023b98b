package dev.idxkit.jmh.experiments;

import com.sun.nio.file.ExtendedOpenOption;
import dev.idxkit.core.internal.io.PageFile;
import dev.idxkit.core.spi.Page;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import net.openhft.chronicle.bytes.MappedBytesStore;
import net.openhft.chronicle.bytes.MappedFile;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;
import net.openhft.chronicle.core.io.ReferenceOwner;

/**
 * One way of reading a chunk of the {@code io} experiment's file: through a memory mapping, through
 * the store's own read path ({@link PageFile}: its mapping and the advice it gives the kernel),
 * through {@code FileChannel.read} into a direct buffer, or through {@code FileChannel.read} with
 * {@code O_DIRECT} into an aligned buffer. Each reader copies the chunk into memory it owns (as a
 * caller that wants the bytes would) and checks it is the right data: the file holds its own
 * offsets ({@link #fill}), so the word at the chunk's start and at every 4 KiB boundary in it must
 * equal its offset. A reader that returned the wrong bytes fails the experiment instead of
 * reporting a fast figure.
 *
 * <p>Memory: one buffer of the largest chunk (8 MiB by default), allocated once per reader; the
 * mapping reader maps the file in 64 MiB chunks with an overlap as large as the largest read, so a
 * read never spans two mappings. {@link #close()} unmaps and closes everything, so the file's pages
 * can be evicted from the page cache between measurements (mapped pages cannot be).
 */
abstract class IoReader implements AutoCloseable {
  /** The distance between checked words inside a chunk. */
  static final int CHECK_STRIDE = 4096;

  /** A method of reading, as named in the results. */
  enum Method {
    MMAP("mmap"),
    STORE("store"),
    STORE_PREAD("store_pread"),
    STORE_FAULT("store_fault"),
    CHANNEL("channel"),
    DIRECT("o_direct");

    final String label;

    Method(String label) {
      this.label = label;
    }
  }

  final Path file;
  final long fileSize;

  IoReader(Path file) throws IOException {
    this.file = file;
    this.fileSize = Files.size(file);
  }

  static IoReader open(Method m, Path file, int maxChunk) throws IOException {
    return switch (m) {
      case MMAP -> new Mapped(file, maxChunk);
      case STORE -> new StoreRead(file, maxChunk, StoreRead.Cold.WILL_NEED);
      case STORE_PREAD -> new StoreRead(file, maxChunk, StoreRead.Cold.PREAD);
      case STORE_FAULT -> new StoreRead(file, maxChunk, StoreRead.Cold.FAULT);
      case CHANNEL -> new Channel(file, maxChunk, false);
      case DIRECT -> new Channel(file, maxChunk, true);
    };
  }

  /**
   * The alignment offsets and sizes must have for this method ({@code O_DIRECT}: the file store's
   * block size), 1 for none.
   */
  abstract int alignment();

  /**
   * What random offsets for chunks of {@code chunk} bytes are aligned to: 4 KiB (the chunk below
   * that), or more where the method needs it.
   */
  long offsetAlignment(int chunk) {
    return Math.max(alignment(), Math.min(chunk, 4096));
  }

  /** Reads {@code length} bytes at {@code offset} and checks them; throws if they are wrong. */
  abstract void read(long offset, int length) throws IOException;

  @Override
  public abstract void close();

  /**
   * Writes {@code size} bytes (a multiple of 8) to {@code file}: every 8-byte big-endian word holds
   * its own offset. Forced to the device, so that its pages are clean and can be evicted.
   */
  static void fill(Path file, long size) throws IOException {
    if (size % 8 != 0) {
      throw new IllegalArgumentException("size : " + size + " (expected: a multiple of 8)");
    }
    ByteBuffer b = ByteBuffer.allocateDirect(8 << 20).order(ByteOrder.BIG_ENDIAN);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      for (long off = 0; off < size; ) {
        b.clear();
        int n = (int) Math.min(b.capacity(), size - off);
        for (int i = 0; i < n; i += 8) {
          b.putLong(i, off + i);
        }
        b.limit(n);
        while (b.hasRemaining()) {
          off += ch.write(b, off);
        }
      }
      ch.force(true);
    }
  }

  /**
   * Checks the chunk read at {@code offset} ({@code length} bytes at the start of {@code chunk},
   * big-endian): the first whole word in it and one every {@link #CHECK_STRIDE} bytes after.
   */
  final void checkChunk(long offset, int length, ByteBuffer chunk) {
    long first = offset & ~7L;
    int skip = (int) (first == offset ? 0 : first + 8 - offset);
    for (int i = skip; i + 8 <= length; i += CHECK_STRIDE) {
      check(offset + i, chunk.getLong(i));
    }
  }

  /**
   * Throws unless the word at {@code at} (an offset in the file) read as {@code actual} is right.
   */
  final void check(long at, long actual) {
    if (actual != at) {
      throw new IllegalStateException(
          getClass().getSimpleName()
              + " read "
              + Long.toHexString(actual)
              + " at offset "
              + at
              + " of "
              + file
              + " (expected: "
              + Long.toHexString(at)
              + ", the file holds its own offsets)");
    }
  }

  /** Reads through Chronicle Bytes mappings, the way the store's {@code PageFile} reads pages. */
  static final class Mapped extends IoReader {
    static final long MAP_CHUNK = 64L << 20;

    private final MappedFile mapped;
    private final ReferenceOwner owner = ReferenceOwner.temporary("IoReader.Mapped");
    private final MappedBytesStore[] stores;
    private final byte[] scratch;
    private boolean closed;

    Mapped(Path file, int maxChunk) throws IOException {
      super(file);
      this.mapped = MappedFile.of(file.toFile(), MAP_CHUNK, maxChunk, true);
      this.stores = new MappedBytesStore[(int) ((fileSize + MAP_CHUNK - 1) / MAP_CHUNK)];
      this.scratch = new byte[maxChunk];
    }

    @Override
    int alignment() {
      return 1;
    }

    @Override
    void read(long offset, int length) throws IOException {
      int c = (int) (offset / MAP_CHUNK);
      MappedBytesStore s = stores[c];
      if (s == null) {
        s = mapped.acquireByteStore(owner, c * MAP_CHUNK);
        stores[c] = s;
      }
      long n = s.read(offset, scratch, 0, length);
      if (n != length) {
        throw new IOException(
            "mapped read of " + length + " bytes at " + offset + " of " + file + " gave " + n);
      }
      checkChunk(offset, length, ByteBuffer.wrap(scratch, 0, length).order(ByteOrder.BIG_ENDIAN));
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      for (MappedBytesStore s : stores) {
        if (s != null) {
          s.release(owner);
        }
      }
      mapped.releaseLast();
      // Chronicle unmaps on a background thread; wait for it, or the pages stay mapped and the
      // next eviction leaves them in memory (seen: 340 MB resident before the next point).
      BackgroundResourceReleaser.releasePendingResources();
    }
  }

  /**
   * Reads through the store's read path: {@link PageFile} with the database's default 8 KiB pages,
   * so the mapping, its chunking and the advice it gives the kernel are the store's own. A read
   * that does not continue the previous one is a lookup: each page it covers goes through {@link
   * PageFile#viewWhole}, what the store does on a page's first read since open (the store then
   * checks the checksum; this file holds offsets, not pages, so nothing is checked but the
   * offsets). A read that continues the previous one is a scan: pages through {@link
   * PageFile#view}, with a window hinted ahead through {@link PageFile#willNeed} as the store's
   * scans do ({@code ScanReadAhead}).
   */
  static final class StoreRead extends IoReader {
    /**
     * How a lookup's page is brought in: what the store does ({@link PageFile#viewWhole}: {@code
     * madvise(WILLNEED)} over the page), and the two alternatives it was measured against: one
     * {@code pread} of the page before the mapped view, and plain faults (one per 4 KiB OS page,
     * since the mapping is advised random).
     */
    enum Cold {
      PREAD,
      WILL_NEED,
      FAULT
    }

    static final int PAGE = 8192;
    static final long WINDOW = dev.idxkit.core.spi.ScanReadAhead.WINDOW_BYTES / PAGE;

    private final PageFile pages;
    private final Cold cold;
    private final FileChannel preads;
    private final ByteBuffer pageBuffer = ByteBuffer.allocateDirect(PAGE);
    private final byte[] scratch;
    private long hintedTo = -1;
    private long lastEnd; // where the previous read ended: the next one in order starts there

    StoreRead(Path file, int maxChunk, Cold cold) throws IOException {
      super(file);
      this.cold = cold;
      this.pages = PageFile.open(file, PAGE, false, true);
      this.preads = cold == Cold.PREAD ? FileChannel.open(file, StandardOpenOption.READ) : null;
      this.scratch = new byte[maxChunk];
    }

    @Override
    int alignment() {
      return 1;
    }

    /** The store reads whole pages at page boundaries: chunks from 8 KiB start on one. */
    @Override
    long offsetAlignment(int chunk) {
      return Math.max(Math.min(chunk, 4096), Math.min(Integer.highestOneBit(chunk), PAGE));
    }

    @Override
    void read(long offset, int length) throws IOException {
      long first = offset / PAGE;
      boolean scan = offset == lastEnd;
      if (scan) {
        long end = (offset + length + PAGE - 1) / PAGE;
        if (end + WINDOW / 2 > hintedTo) {
          long from = Math.max(first, hintedTo);
          pages.willNeed(from, end + WINDOW - from);
          hintedTo = end + WINDOW;
        }
      }
      lastEnd = offset + length;
      int done = 0;
      for (long p = first; done < length; p++) {
        Page page;
        if (scan || cold == Cold.FAULT) {
          page = pages.view(p);
        } else if (cold == Cold.PREAD) {
          pageBuffer.clear();
          preads.read(pageBuffer, p * PAGE);
          page = pages.view(p);
        } else {
          page = pages.viewWhole(p);
        }
        int in = (int) (offset + done - p * PAGE);
        int n = Math.min(PAGE - in, length - done);
        page.getBytes(in, scratch, done, n);
        done += n;
      }
      checkChunk(offset, length, ByteBuffer.wrap(scratch, 0, length).order(ByteOrder.BIG_ENDIAN));
    }

    /** Why the store could not advise the kernel about this file, or null. */
    String adviceProblem() {
      return pages.adviceProblem();
    }

    @Override
    public void close() {
      pages.close();
      if (preads != null) {
        try {
          preads.close();
        } catch (IOException e) {
          // a read-only channel has nothing to lose on close
        }
      }
      BackgroundResourceReleaser.releasePendingResources();
    }
  }

  /** Reads with {@code FileChannel.read} into a direct buffer, with or without {@code O_DIRECT}. */
  static final class Channel extends IoReader {
    private final FileChannel ch;
    private final ByteBuffer buffer;
    private final int alignment;
    private boolean closed;

    Channel(Path file, int maxChunk, boolean direct) throws IOException {
      super(file);
      if (direct) {
        alignment = (int) Files.getFileStore(file).getBlockSize();
        ch = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
        buffer = ByteBuffer.allocateDirect(maxChunk + alignment).alignedSlice(alignment);
      } else {
        alignment = 1;
        ch = FileChannel.open(file, StandardOpenOption.READ);
        buffer = ByteBuffer.allocateDirect(maxChunk);
      }
      buffer.order(ByteOrder.BIG_ENDIAN);
    }

    @Override
    int alignment() {
      return alignment;
    }

    @Override
    void read(long offset, int length) throws IOException {
      buffer.clear().limit(length);
      long pos = offset;
      while (buffer.hasRemaining()) {
        int n = ch.read(buffer, pos);
        if (n < 0) {
          throw new IOException(
              "end of " + file + " at " + pos + " reading " + length + " bytes at " + offset);
        }
        pos += n;
      }
      checkChunk(offset, length, buffer);
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        ch.close();
      } catch (IOException e) {
        // A read-only channel has nothing to lose on close.
      }
    }
  }
}
