package dev.idxkit.jmh.experiments;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes a file out of the page cache between measurements, so that the {@code io} experiment reads
 * the device rather than memory, and runs {@code dd} on the file for comparison.
 *
 * <p>How, in order of preference, decided once by {@link #choose} on the experiment's file:
 *
 * <ol>
 *   <li>{@code dd if=FILE iflag=nocache count=0}: GNU dd calls {@code posix_fadvise(DONTNEED)} on
 *       the whole file. Touches only this file, needs no privilege; works for clean pages that no
 *       process maps (the file is fsynced after writing and the readers unmap before eviction).
 *   <li>{@code sync; echo 1 > /proc/sys/vm/drop_caches}: the whole machine's page cache (root only;
 *       on a shared machine it slows everyone else's next reads, hence second).
 *   <li>None: the figures are then reads from memory, and the results say so.
 * </ol>
 *
 * A method counts only if {@code fincore} (util-linux) then reports no resident pages; without
 * {@code fincore} the dd method is used unverified and the results say that too.
 */
final class PageCache {
  enum Eviction {
    FADVISE("dd iflag=nocache count=0 (posix_fadvise DONTNEED on the file)"),
    DROP_CACHES("sync; echo 1 > /proc/sys/vm/drop_caches (the whole machine's page cache)"),
    NONE("none: no way to evict was found, reads may come from memory");

    final String description;

    Eviction(String description) {
      this.description = description;
    }
  }

  private static final Pattern DD_LINE =
      Pattern.compile("^(\\d+) bytes .*copied, ([0-9.]+(?:e[-+]?\\d+)?) s, .*$");

  private final Path file;
  private final Eviction eviction;
  private final boolean verifiable;

  private PageCache(Path file, Eviction eviction, boolean verifiable) {
    this.file = file;
    this.eviction = eviction;
    this.verifiable = verifiable;
  }

  /** Tries the methods on {@code file} (which must hold at least a page) and keeps the first. */
  static PageCache choose(Path file) throws IOException, InterruptedException {
    boolean fincore = residentBytes(file) >= 0;
    touch(file);
    if (fadvise(file) && (!fincore || residentBytes(file) == 0)) {
      return new PageCache(file, Eviction.FADVISE, fincore);
    }
    if (fincore) {
      touch(file);
      if (dropCaches() && residentBytes(file) == 0) {
        return new PageCache(file, Eviction.DROP_CACHES, true);
      }
    }
    return new PageCache(file, Eviction.NONE, fincore);
  }

  /** One sentence for the results' notes. */
  String describe() {
    return "page cache eviction before each measurement: "
        + eviction.description
        + (verifiable ? ", checked with fincore" : ", not checked (no fincore)");
  }

  /**
   * Evicts the file; returns the bytes of it still resident afterwards (-1 if that cannot be told).
   */
  long evict() throws IOException, InterruptedException {
    switch (eviction) {
      case FADVISE -> fadvise(file);
      case DROP_CACHES -> dropCaches();
      case NONE -> {}
    }
    return residentBytes(file);
  }

  /** Bytes of {@code file} in the page cache per {@code fincore}, or -1 if it cannot be run. */
  static long residentBytes(Path file) throws InterruptedException {
    Result r = exec("fincore", "--bytes", "--noheadings", "--output", "RES", file.toString());
    if (r == null || r.code() != 0) {
      return -1;
    }
    try {
      return Long.parseLong(r.out().strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** What {@code dd if=FILE of=/dev/null bs=BS} reported. */
  record DdRun(long bytes, double seconds) {
    double mibPerSecond() {
      return bytes / 1048576.0 / seconds;
    }
  }

  /** Runs {@code dd} over the whole file with blocks of {@code blockBytes}. */
  static DdRun dd(Path file, int blockBytes) throws IOException, InterruptedException {
    Result r = exec("dd", "if=" + file, "of=/dev/null", "bs=" + blockBytes);
    if (r == null || r.code() != 0) {
      throw new IOException(
          "dd if=" + file + " bs=" + blockBytes + " failed: " + (r == null ? "no dd" : r.err()));
    }
    return parseDd(r.err());
  }

  /** Reads dd's summary line: {@code 1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.75 s, ...}. */
  static DdRun parseDd(String stderr) throws IOException {
    for (String line : stderr.lines().toList()) {
      Matcher m = DD_LINE.matcher(line.strip());
      if (m.matches()) {
        return new DdRun(Long.parseLong(m.group(1)), Double.parseDouble(m.group(2)));
      }
    }
    throw new IOException("no summary line in dd's output: " + stderr.strip());
  }

  private static boolean fadvise(Path file) throws InterruptedException {
    Result r = exec("dd", "if=" + file, "iflag=nocache", "count=0", "status=none");
    return r != null && r.code() == 0;
  }

  private static boolean dropCaches() throws InterruptedException {
    Result sync = exec("sync");
    if (sync == null || sync.code() != 0) {
      return false;
    }
    Path knob = Path.of("/proc/sys/vm/drop_caches");
    try {
      Files.writeString(knob, "1\n", StandardCharsets.US_ASCII);
      return true;
    } catch (IOException | SecurityException e) {
      return false; // not root, or not Linux
    }
  }

  /** Reads the file's first 16 MiB, so that there is something resident to evict. */
  private static void touch(Path file) throws IOException {
    try (var in = Files.newInputStream(file)) {
      byte[] b = new byte[1 << 20];
      for (int i = 0; i < 16 && in.read(b) > 0; i++) {
        // reading is the point
      }
    }
  }

  private record Result(int code, String out, String err) {}

  /** Runs a tool with the C locale; null if it cannot be started at all. */
  private static Result exec(String... command) throws InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(List.of(command));
    pb.environment().put("LC_ALL", "C");
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      return null;
    }
    try {
      p.getOutputStream().close();
      List<byte[]> parts = new ArrayList<>(2);
      // dd and fincore write a line or two: reading stdout then stderr cannot fill a pipe.
      parts.add(p.getInputStream().readAllBytes());
      parts.add(p.getErrorStream().readAllBytes());
      int code = p.waitFor();
      return new Result(
          code,
          new String(parts.get(0), StandardCharsets.UTF_8),
          new String(parts.get(1), StandardCharsets.UTF_8));
    } catch (IOException e) {
      return null;
    } finally {
      p.destroy();
    }
  }
}
