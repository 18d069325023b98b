package dev.idxkit.jmh.io;

import dev.idxkit.core.internal.io.PageFile;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.jmh.BenchDir;
import dev.idxkit.jmh.BenchmarkBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import net.openhft.chronicle.bytes.BytesStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Random 8 KiB page reads from a file of {@code fileMiB} MiB (256 and 1024 by default), by three
 * routes: {@link PageFile#read} (a view of the Chronicle Bytes mapping, checksum verified on the
 * first read of each page only), {@link FileChannel#read(ByteBuffer, long)} into a direct buffer,
 * and the same into a heap buffer; plus {@code mappedVerifyEveryRead}, the mapped view with its
 * CRC32C recomputed on every read, which is what checking each read would cost. ops/s = pages/s.
 *
 * <p>Every kernel reads the page's header page number (and checks it is the page asked for) and the
 * last 8 bytes of the page. The mapped route touches only those cache lines, where a channel read
 * copies the whole page out of the kernel: that difference is the point of mapping.
 *
 * <p>Set-up, once per trial: the file is written with sealed HEAP pages (each carrying its number)
 * in a fresh {@link BenchDir}, then opened again so the {@code PageFile}'s verified-page bitmap
 * starts empty, as after a database open. The file was just written, so it sits in the page cache
 * (the machine has far more memory than 1 GiB): these are warm reads, not disk reads. Tear-down
 * closes the file (unmapping it), releases the direct buffer and deletes the directory.
 */
@State(Scope.Thread)
public class PageReadBench extends BenchmarkBase {
  static final int PAGE_SIZE = Page.DEFAULT_SIZE;
  static final long SEED = 20_240_606L;

  @Param({"256", "1024"})
  public int fileMiB;

  BenchDir dir;
  long pages;
  PageFile pageFile;
  FileChannel channel;
  BytesStore<?, ByteBuffer> directStore;
  ByteBuffer direct;
  ByteBuffer heap;
  final SplittableRandom random = new SplittableRandom(SEED);

  @Setup(Level.Trial)
  public void setup() throws IOException {
    if (fileMiB < 1) {
      throw new IllegalArgumentException("fileMiB : " + fileMiB + " (expected: >= 1)");
    }
    dir = BenchDir.create("page-read");
    try {
      Path file = dir.resolve("pages.area");
      pages = (long) fileMiB * (1 << 20) / PAGE_SIZE;
      writeFile(file, pages);
      pageFile = PageFile.open(file, PAGE_SIZE, false, true);
      channel = FileChannel.open(file, StandardOpenOption.READ);
      directStore = BytesStore.elasticByteBuffer(PAGE_SIZE, PAGE_SIZE);
      direct = directStore.underlyingObject().order(ByteOrder.LITTLE_ENDIAN);
      heap = ByteBuffer.allocate(PAGE_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    } catch (IOException | RuntimeException e) {
      tearDown();
      throw e;
    }
  }

  /** Writes {@code pages} sealed pages, 1 MiB per write, through a temporary page file. */
  static void writeFile(Path file, long pages) {
    BytesStore<?, ByteBuffer> chunk = BytesStore.elasticByteBuffer(1 << 20, 1 << 20);
    try (PageFile f = PageFile.open(file, PAGE_SIZE, true, false)) {
      ByteBuffer buf = chunk.underlyingObject();
      int perChunk = (1 << 20) / PAGE_SIZE;
      for (long first = 0; first < pages; first += perChunk) {
        int n = (int) Math.min(perChunk, pages - first);
        for (int i = 0; i < n; i++) {
          Page p = new Page(chunk, (long) i * PAGE_SIZE, PAGE_SIZE);
          p.format(PageType.HEAP, first + i, 0);
          p.putLong(PAGE_SIZE - 8, first + i);
          p.seal(1);
        }
        buf.clear().limit(n * PAGE_SIZE);
        f.write(first, buf);
      }
    } finally {
      chunk.releaseLast();
    }
  }

  @Benchmark
  public long mapped() {
    long no = random.nextLong(pages);
    Page p = pageFile.read(no);
    return check(no, p.pageNo(), p.getLong(PAGE_SIZE - 8));
  }

  @Benchmark
  public long mappedVerifyEveryRead() {
    long no = random.nextLong(pages);
    Page p = pageFile.view(no);
    pageFile.verify(p, no);
    return check(no, p.pageNo(), p.getLong(PAGE_SIZE - 8));
  }

  @Benchmark
  public long channelDirect() {
    return readChannel(direct);
  }

  @Benchmark
  public long channelHeap() {
    return readChannel(heap);
  }

  private long readChannel(ByteBuffer b) {
    long no = random.nextLong(pages);
    b.clear();
    try {
      long pos = no * PAGE_SIZE;
      while (b.hasRemaining()) {
        if (channel.read(b, pos + b.position()) < 0) {
          throw new IllegalStateException("end of file at page " + no);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return check(no, b.getLong(8), b.getLong(PAGE_SIZE - 8));
  }

  private static long check(long expected, long headerPageNo, long trailer) {
    if (headerPageNo != expected || trailer != expected) {
      throw new IllegalStateException(
          "page " + expected + " reads as page " + headerPageNo + " / " + trailer);
    }
    return trailer;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try {
      if (pageFile != null) {
        pageFile.close();
        pageFile = null;
      }
      if (channel != null) {
        channel.close();
      }
      if (directStore != null && directStore.refCount() > 0) {
        directStore.releaseLast();
      }
    } finally {
      if (dir != null) {
        dir.close();
        dir = null;
      }
    }
  }
}
