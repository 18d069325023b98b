package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.spi.ScanReadAhead;
import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The advice {@link PageFile} gives the kernel about its mappings: that it is given (read back from
 * the kernel's own record of the mapping, {@code /proc/self/smaps}), that it has the effect it is
 * for (a cold random read leaves only its pages resident, {@code mincore}), that scans ask for what
 * they will read, and that a refused call changes nothing but the report.
 */
class PageFileAdviceTest {
  private static final int PAGE = 8192;

  @TempDir Path dir;

  @Test
  void everyMappingIsAdvisedForRandomReads() throws IOException {
    assumeTrue(Madvise.unavailable() == null, "madvise: " + Madvise.unavailable());
    Path smaps = Path.of("/proc/self/smaps");
    assumeTrue(Files.isReadable(smaps), "no /proc/self/smaps here");
    Path file = dir.resolve("a");
    write(file, 16);
    try (PageFile f = PageFile.open(file, PAGE, false, true)) {
      assertThat(f.read(3).pageNo()).isEqualTo(3);
      assertThat(f.adviceProblem()).isNull();
      // smaps lists each mapping ("start-end perms ...") and then its "VmFlags:"; "rr" is
      // VM_RAND_READ, what madvise(MADV_RANDOM) sets.
      assertThat(vmFlags(smaps, f.chunkAddress(0))).contains("rr");
    }
  }

  @Test
  void aColdRandomReadLeavesOnlyItsPagesResident() throws IOException {
    assumeTrue(Madvise.unavailable() == null, "madvise: " + Madvise.unavailable());
    long seed = Seeds.seed();
    Path file = dir.resolve("a");
    int pages = 8192; // 64 MiB: far more than the device's read-ahead would pull per fault
    write(file, pages);
    assumeTrue(evict(file), "posix_fadvise(DONTNEED) is not available here");
    int reads = 32;
    try (PageFile f = PageFile.open(file, PAGE, false, true)) {
      f.chunkAddress(0);
      assumeTrue(
          f.residentBytes() == 0,
          "the file stayed in the page cache after eviction (tmpfs?): nothing to measure");
      SplittableRandom random = Seeds.random(seed);
      for (int i = 0; i < reads; i++) {
        long n = random.nextLong(pages);
        assertThat(f.read(n).getLong(Page.HEADER_SIZE)).isEqualTo(n * 31);
      }
      long resident = f.residentBytes();
      // Each read touches its 8 KiB page; without the advice each fault read up to the device's
      // read-ahead (8 MiB on the development VM: the whole file after a few reads).
      assertThat(resident)
          .as("bytes resident after %d cold random reads; %s", reads, repro(seed))
          .isBetween((long) PAGE / 2, 2L * reads * PAGE);
    }
  }

  @Test
  void aScanAsksForItsPagesAheadOfReadingThem() {
    Path file = dir.resolve("a");
    int pages = 3000;
    write(file, pages);
    List<long[]> willNeed = new ArrayList<>();
    // Longer than a page: the scan's hints (a first read outside them asks for its page).
    FileIo recording = recordingWillNeed(length -> length > PAGE, willNeed);
    try (PageFile f = PageFile.open(file, PAGE, false, true, recording)) {
      long base = f.chunkAddress(0);
      ScanReadAhead ahead = new ScanReadAhead(PAGE);
      PageFileAccess access = new PageFileAccess(f);
      for (long n = 0; n < pages; n++) {
        ahead.before(access, n);
        assertThat(f.read(n).getLong(Page.HEADER_SIZE)).isEqualTo(n * 31);
      }
      // Window of 1024 pages, hinted half a window ahead: [0, 1024), [1024, 1536), ...; the last
      // hints are clipped to the file's end (3000 pages).
      long window = ScanReadAhead.WINDOW_BYTES / PAGE;
      List<long[]> expected = new ArrayList<>();
      expected.add(new long[] {0, window});
      for (long from = window; from < pages; from += window / 2) {
        expected.add(new long[] {from, Math.min(from + window / 2, pages) - from});
      }
      assertThat(willNeed).hasSize(expected.size());
      for (int i = 0; i < expected.size(); i++) {
        long[] e = expected.get(i);
        assertThat(willNeed.get(i)[0] - base).as("hint %d start", i).isEqualTo(e[0] * PAGE);
        assertThat(willNeed.get(i)[1]).as("hint %d length", i).isEqualTo(e[1] * PAGE);
      }
      assertThat(f.adviceProblem()).isNull();
    }
  }

  @Test
  void aFirstReadAsksForItsPageUnlessAScanAskedForItAlready() {
    Path file = dir.resolve("a");
    int pages = 3000;
    write(file, pages);
    List<long[]> pageHints = new ArrayList<>();
    FileIo recording = recordingWillNeed(length -> length <= PAGE, pageHints);
    try (PageFile f = PageFile.open(file, PAGE, false, true, recording)) {
      ScanReadAhead ahead = new ScanReadAhead(PAGE);
      PageFileAccess access = new PageFileAccess(f);
      for (long n = 0; n < pages; n++) {
        ahead.before(access, n);
        assertThat(f.read(n).getLong(Page.HEADER_SIZE)).isEqualTo(n * 31);
      }
      assertThat(pageHints).as("pages the scan asked for ahead").isEmpty();
    }
    pageHints.clear();
    try (PageFile f = PageFile.open(file, PAGE, false, true, recording)) {
      long base = f.chunkAddress(0);
      f.willNeed(100, 50);
      for (long n : new long[] {7, 99, 100, 149, 150, 2999, 7}) {
        assertThat(f.read(n).getLong(Page.HEADER_SIZE)).isEqualTo(n * 31);
      }
      // 7, 99, 150 and 2999 on their first read; 100 and 149 were asked for; 7 again is verified.
      assertThat(pageHints.stream().map(h -> h[0]))
          .containsExactly(
              base + 7 * PAGE, base + 99 * PAGE, base + 150 * PAGE, base + 2999L * PAGE);
    }
  }

  @Test
  void aRefusedCallChangesNothingButTheReport() {
    Path file = dir.resolve("a");
    write(file, 200);
    int[] calls = {0};
    FileIo refusing =
        new FileIo() {
          @Override
          public FileChannel open(Path path, java.util.Set<? extends java.nio.file.OpenOption> o)
              throws IOException {
            return FileChannel.open(path, o);
          }

          @Override
          public void advise(long address, long length, Advice advice) throws IOException {
            calls[0]++;
            throw new IOException("madvise refused: Operation not permitted (injected)");
          }
        };
    try (PageFile f = PageFile.open(file, PAGE, false, false, refusing)) {
      f.willNeed(0, 200);
      for (long n = 0; n < 200; n++) {
        assertThat(f.read(n).getLong(Page.HEADER_SIZE)).isEqualTo(n * 31);
      }
      f.write(200, page(200));
      assertThat(f.read(200).getLong(Page.HEADER_SIZE)).isEqualTo(200 * 31);
      assertThat(f.adviceProblem()).contains("Operation not permitted (injected)");
      assertThat(calls[0]).as("advice is not retried after a refusal").isEqualTo(1);
    }
  }

  // ---- helpers ----

  /** Real files; each WILL_NEED advice whose length {@code keep} accepts goes to {@code into}. */
  private static FileIo recordingWillNeed(
      java.util.function.LongPredicate keep, List<long[]> into) {
    return new FileIo() {
      @Override
      public FileChannel open(Path path, java.util.Set<? extends java.nio.file.OpenOption> o)
          throws IOException {
        return FileChannel.open(path, o);
      }

      @Override
      public void advise(long address, long length, Advice advice) {
        if (advice == Advice.WILL_NEED && keep.test(length)) {
          into.add(new long[] {address, length});
        }
      }
    };
  }

  private static String repro(long seed) {
    return Seeds.reproduce(seed, PageFileAdviceTest.class);
  }

  private static ByteBuffer page(long n) {
    ByteBuffer b = ByteBuffer.allocateDirect(PAGE);
    Page p = new Page(BytesStore.wrap(b), 0, PAGE);
    p.format(PageType.HEAP, n, 0);
    p.putLong(Page.HEADER_SIZE, n * 31);
    p.seal(1);
    return b;
  }

  /** Writes {@code pages} checksummed pages, page {@code n} holding {@code n * 31}, and fsyncs. */
  private static void write(Path file, int pages) {
    try (PageFile f = PageFile.open(file, PAGE, true, false)) {
      for (long n = 0; n < pages; n++) {
        f.write(n, page(n));
      }
      f.sync();
    }
  }

  /**
   * Takes the (unmapped, clean) file out of the page cache ({@link Madvise#evict} with no mapping
   * of ours to drop); false when that cannot be done here.
   */
  private static boolean evict(Path file) {
    try {
      Madvise.evict(file, new long[0]);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The VmFlags of the mapping in {@code smaps} that contains {@code address}. */
  private static List<String> vmFlags(Path smaps, long address) throws IOException {
    boolean inside = false;
    for (String line : Files.readAllLines(smaps)) {
      int dash = line.indexOf('-');
      int space = line.indexOf(' ');
      if (dash > 0 && space > dash && line.substring(0, dash).matches("[0-9a-f]+")) {
        long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
        long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
        inside = address >= start && address < end;
      } else if (inside && line.startsWith("VmFlags:")) {
        return List.of(line.substring("VmFlags:".length()).trim().split("\\s+"));
      }
    }
    throw new AssertionError("no mapping at 0x" + Long.toHexString(address) + " in " + smaps);
  }

  /** The smallest {@link dev.idxkit.core.spi.PageAccess} over a page file, for the hint test. */
  private static final class PageFileAccess implements dev.idxkit.core.spi.PageAccess {
    private final PageFile file;

    PageFileAccess(PageFile file) {
      this.file = file;
    }

    @Override
    public int pageSize() {
      return file.pageSize();
    }

    @Override
    public int areaId() {
      return 0;
    }

    @Override
    public String name() {
      return file.path().toString();
    }

    @Override
    public Page read(long pageNo) {
      return file.read(pageNo);
    }

    @Override
    public Page write(long pageNo) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Page allocate(PageType type) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void free(long pageNo) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void willRead(long firstPage, long pages) {
      file.willNeed(firstPage, pages);
    }
  }
}
