package dev.idxkit.core.internal.io;

import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.ProblemText;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.Page;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import net.openhft.chronicle.bytes.MappedBytesStore;
import net.openhft.chronicle.bytes.MappedFile;
import net.openhft.chronicle.core.io.ReferenceOwner;

/**
 * The one place that touches a page file's channel and mapping. Reads are views of memory mapped
 * through Chronicle Bytes in fixed chunks (64-bit offsets, so files past 2 GiB just work); writes
 * are positional writes from direct buffers, so the kernel page cache is shared by both and a
 * written page is visible to the next mapped read.
 *
 * <p>Checksums are verified the first time a page is read after open and never again until the page
 * is rewritten: a bitmap remembers verified pages. Pages this process writes are marked verified,
 * since their checksum was just computed.
 *
 * <p>Reading a page past the end of the file would fault inside the mapping, so every read is
 * bounds-checked against the file length first.
 *
 * <p>Read-ahead: each chunk is advised {@link FileIo.Advice#RANDOM} as soon as it is mapped, so a
 * cold page fault reads the page (and no more) instead of the device's read-ahead window around it:
 * most reads here are B+tree descents and the heap reads behind them, point reads of one page. A
 * scan that walks pages in order asks for its read-ahead explicitly, window by window ({@link
 * #willNeed}, {@link FileIo.Advice#WILL_NEED}: the kernel starts reading the range asynchronously).
 * Advice is given through the {@link FileIo} the file was opened with (madvise on Linux); when it
 * is refused or cannot be made, the first reason is kept ({@link #adviceProblem()}), no more advice
 * is attempted, and reads go on exactly as before, at the kernel's default read-ahead.
 */
public final class PageFile implements AutoCloseable {
  /** Mapping granularity: a multiple of every page size, large enough to keep chunk counts low. */
  static final long CHUNK = 64L << 20;

  /** madvise wants ranges that start on an OS page; a store page no larger faults in one read. */
  private static final long OS_PAGE = Madvise.osPageSize();

  private final Path path;
  private final int pageSize;
  private final int pageShift;
  private final FileChannel channel;
  private final MappedFile mapped;
  private final ReferenceOwner owner;
  private final AtomicLong length;
  private final FileIo io;
  // Why advice is not given (the first refusal), or null while it is.
  private volatile String adviceProblem;
  private volatile MappedBytesStore[] chunks = new MappedBytesStore[0];
  private final PageBits verified = new PageBits();
  // Pages a scan asked the kernel to read (willNeed): their first read asks nothing more.
  private final PageBits askedFor = new PageBits();
  // Read-only counters for monitoring (the server's /metrics); LongAdder keeps concurrent readers
  // from contending on one cache line.
  private final LongAdder pagesRead = new LongAdder();
  private final LongAdder pagesWritten = new LongAdder();
  private boolean closed;

  private PageFile(Path path, int pageSize, FileChannel channel, MappedFile mapped, FileIo io)
      throws IOException {
    this.path = path;
    this.pageSize = Page.checkSize(pageSize);
    this.pageShift = Integer.numberOfTrailingZeros(pageSize);
    this.channel = channel;
    this.mapped = mapped;
    this.owner = ReferenceOwner.temporary("PageFile " + path);
    this.length = new AtomicLong(channel.size());
    this.io = io;
    mapped.singleThreadedCheckDisabled(true);
  }

  /** Opens (creating if {@code create}) a page file; read-only files refuse writes. */
  public static PageFile open(Path path, int pageSize, boolean create, boolean readOnly) {
    return open(path, pageSize, create, readOnly, FileIo.DEFAULT);
  }

  /**
   * As {@link #open(Path, int, boolean, boolean)}, with the file's channel opened by {@code io}.
   */
  public static PageFile open(
      Path path, int pageSize, boolean create, boolean readOnly, FileIo io) {
    FileChannel ch = null;
    try {
      ch =
          readOnly
              ? io.open(path, Set.of(StandardOpenOption.READ))
              : create
                  ? io.open(
                      path,
                      Set.of(
                          StandardOpenOption.READ,
                          StandardOpenOption.WRITE,
                          StandardOpenOption.CREATE_NEW))
                  : io.open(path, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
      MappedFile mf = MappedFile.of(path.toFile(), CHUNK, 0, true);
      return new PageFile(path, pageSize, ch, mf, io);
    } catch (IOException e) {
      closeQuietly(ch);
      throw new IdxkitIOException("cannot open page file " + path, e);
    }
  }

  public Path path() {
    return path;
  }

  public int pageSize() {
    return pageSize;
  }

  /** Whole pages in the file now. */
  public long sizeInPages() {
    return length.get() >>> pageShift;
  }

  /** The page, checksum-verified on its first read since open. */
  public Page read(long pageNo) {
    pagesRead.increment();
    if (!verified.get(pageNo)) {
      Page p = viewWhole(pageNo);
      verify(p, pageNo);
      verified.set(pageNo);
      return p;
    }
    return view(pageNo);
  }

  /**
   * A view of the page after asking the kernel to read all of it in one request ({@code
   * madvise(WILLNEED)} over the page). Why: a mapping advised for random reads faults one OS page
   * (4 KiB) at a time, so a cold 8 KiB page would cost two device reads one after the other; with
   * the hint it costs one. Measured against a {@code pread} of the page and against plain faults in
   * the {@code io} experiment (README, "Cold random reads through the store"). {@link #read} uses
   * it on a page's first read since open, when the page is likely not in memory; it costs a system
   * call, so pages read before go through {@link #view}, and so do pages a scan already asked for
   * ({@link #willNeed}): one call per page there was 15 % of a one-index rebuild's scan CPU
   * (async-profiler, primary key of lineitem SF 1, the database opened for each rebuild, as the
   * command line does). Without the advice (refused, or not available here) a fault reads around
   * the page anyway, so nothing is asked: the read path is then exactly what it was before advice.
   */
  public Page viewWhole(long pageNo) {
    Page p = view(pageNo);
    if (pageSize > OS_PAGE && adviceProblem == null && !askedFor.get(pageNo)) {
      long off = pageNo << pageShift;
      long start = off & ~(OS_PAGE - 1);
      advise(
          chunkStore((int) (off / CHUNK)).addressForRead(start),
          off + pageSize - start,
          FileIo.Advice.WILL_NEED);
    }
    return p;
  }

  /** The page without checksum verification (for damage reports that must see raw bytes). */
  public Page view(long pageNo) {
    long off = pageNo << pageShift;
    if (pageNo < 0 || off + pageSize > length.get()) {
      throw new CorruptPageException(
          path, pageNo, "page is beyond the end of the file (" + sizeInPages() + " pages)");
    }
    return new Page(chunkStore((int) (off / CHUNK)), off, pageSize);
  }

  private MappedBytesStore chunkStore(int chunk) {
    MappedBytesStore[] cs = chunks;
    MappedBytesStore store = chunk < cs.length ? cs[chunk] : null;
    return store != null ? store : acquireChunk(chunk);
  }

  /** Checks a page image's checksum and that it is the page it claims to be. */
  public void verify(Page p, long pageNo) {
    int stored = p.storedChecksum();
    int actual = p.computeChecksum();
    if (stored != actual) {
      throw CorruptPageException.checksum(path, pageNo, stored, actual);
    }
    if (p.pageNo() != pageNo) {
      throw new CorruptPageException(
          path, pageNo, "header names page " + p.pageNo() + " (misdirected write)");
    }
  }

  /**
   * Writes {@code src} (position to limit, a whole number of pages) at {@code pageNo}. Thread-safe:
   * positional writes of different pages may run concurrently.
   */
  public void write(long pageNo, ByteBuffer src) {
    int bytes = src.remaining();
    if (bytes % pageSize != 0) {
      throw new IllegalArgumentException(
          "write of "
              + bytes
              + " bytes to "
              + path
              + " (expected: a multiple of "
              + pageSize
              + ")");
    }
    long pos = pageNo << pageShift;
    try {
      long p = pos;
      while (src.hasRemaining()) {
        p += channel.write(src, p);
      }
    } catch (IOException e) {
      throw new IdxkitIOException("write of page " + pageNo + " to " + path + " failed", e);
    }
    length.accumulateAndGet(pos + bytes, Math::max);
    pagesWritten.add(bytes >>> pageShift);
    verified.set(pageNo, bytes >>> pageShift);
  }

  /**
   * Asks the kernel to start reading pages {@code [firstPage, firstPage + pages)} now (clipped to
   * the file), because a scan is about to read them in order: the read-ahead a {@link
   * FileIo.Advice#RANDOM} mapping no longer does by itself. Returns at once; does nothing when
   * advice is not available.
   */
  public void willNeed(long firstPage, long pages) {
    if (adviceProblem != null || pages <= 0 || firstPage < 0) {
      return;
    }
    long from = firstPage << pageShift;
    long to = Math.min((firstPage + pages) << pageShift, length.get());
    while (from < to && adviceProblem == null) {
      int chunk = (int) (from / CHUNK);
      MappedBytesStore s = chunkStore(chunk);
      long end = Math.min(to, (chunk + 1) * CHUNK);
      long start = from & ~(OS_PAGE - 1);
      advise(s.addressForRead(start), end - start, FileIo.Advice.WILL_NEED);
      from = end;
    }
    long endPage = to >>> pageShift;
    if (adviceProblem == null && endPage > firstPage) {
      askedFor.set(firstPage, endPage - firstPage);
    }
  }

  /**
   * Why the kernel is not told how this file's mappings are read (the first refusal of the advice,
   * or why it cannot be given here), or null when it is.
   */
  public String adviceProblem() {
    return adviceProblem;
  }

  /**
   * Bytes of this file's mapped chunks resident in memory ({@code mincore}), up to the file's
   * length; what a cold read pulled into memory. For tests and experiments.
   *
   * @throws IOException when mincore cannot be called here
   */
  public long residentBytes() throws IOException {
    long total = 0;
    MappedBytesStore[] cs = chunks;
    for (int c = 0; c < cs.length; c++) {
      if (cs[c] != null) {
        long len = Math.min(CHUNK, length.get() - c * CHUNK);
        if (len > 0) {
          total += Madvise.residentBytes(cs[c].addressForRead(c * CHUNK), len);
        }
      }
    }
    return total;
  }

  /**
   * Takes this file out of the page cache, mapped pages included ({@link Madvise#evict}), so that
   * the next reads come from the device; for experiments that measure cold reads. Not for use while
   * a write is in flight (dirty pages stay cached).
   *
   * @throws IOException when the calls cannot be made here
   */
  public void evictFromPageCache() throws IOException {
    MappedBytesStore[] cs = chunks;
    long[] ranges = new long[2 * cs.length];
    int n = 0;
    for (int c = 0; c < cs.length; c++) {
      if (cs[c] != null) {
        ranges[n++] = cs[c].addressForRead(c * CHUNK);
        ranges[n++] = CHUNK;
      }
    }
    Madvise.evict(path, java.util.Arrays.copyOf(ranges, n));
  }

  /** The address chunk {@code chunk} is mapped at (mapping it if needed); for tests. */
  long chunkAddress(int chunk) {
    return chunkStore(chunk).addressForRead(chunk * CHUNK);
  }

  /**
   * Pages {@link #read} has returned since open: accesses through the mapping, whether the OS page
   * cache or the device served them (a mapped read cannot tell).
   */
  public long pagesRead() {
    return pagesRead.sum();
  }

  /** Pages {@link #write} has written since open. */
  public long pagesWritten() {
    return pagesWritten.sum();
  }

  /** Forces written data to the device (fdatasync). */
  public void sync() {
    try {
      channel.force(false);
    } catch (IOException e) {
      throw new IdxkitIOException("fsync of " + path + " failed", e);
    }
  }

  /** Cuts the file to {@code pages} pages (used only for files nothing references past that). */
  public void truncate(long pages) {
    try {
      channel.truncate(pages << pageShift);
      length.set(Math.min(length.get(), pages << pageShift));
    } catch (IOException e) {
      throw new IdxkitIOException("truncate of " + path + " failed", e);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (MappedBytesStore s : chunks) {
      if (s != null) {
        s.release(owner);
      }
    }
    chunks = new MappedBytesStore[0];
    mapped.releaseLast();
    closeQuietly(channel);
  }

  private synchronized MappedBytesStore acquireChunk(int chunk) {
    if (closed) {
      throw new IllegalStateException(path + " is closed");
    }
    MappedBytesStore[] cs = chunks;
    if (chunk < cs.length && cs[chunk] != null) {
      return cs[chunk];
    }
    try {
      MappedBytesStore s = mapped.acquireByteStore(owner, chunk * CHUNK);
      advise(s.addressForRead(chunk * CHUNK), CHUNK, FileIo.Advice.RANDOM);
      MappedBytesStore[] grown = cs;
      if (chunk >= cs.length) {
        grown = java.util.Arrays.copyOf(cs, chunk + 1);
      } else {
        grown = cs.clone();
      }
      grown[chunk] = s;
      chunks = grown;
      return s;
    } catch (IOException e) {
      throw new IdxkitIOException("cannot map " + path + " at " + chunk * CHUNK, e);
    }
  }

  private void advise(long address, long bytes, FileIo.Advice advice) {
    if (adviceProblem != null) {
      return;
    }
    try {
      io.advise(address, bytes, advice);
    } catch (IOException | RuntimeException | LinkageError e) {
      // Advice changes speed only; reads go on at the kernel's default read-ahead.
      adviceProblem = ProblemText.of(e);
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception ignored) {
        // closing after a failure; the first error is the one reported
      }
    }
  }
}
