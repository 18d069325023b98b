package dev.idxkit.jmh.peers;

import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.RebuildReport;
import dev.idxkit.idxbuild.Selection;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * idxkit's side of {@link IdxbuildBench}: one rebuild of the lineitem indexes in this JVM through
 * {@link IndexRebuild}, checked (every index rebuilt, one entry per row, the primary key active),
 * and its report printed and recorded in the result sheet.
 */
final class IdxkitRebuilds {
  private IdxkitRebuilds() {}

  /** A {@code .srt} file naming one unlimited sort directory, parsed as a DBA's would be. */
  static SrtFile srtFile(Path dir) {
    try {
      Path sort = Files.createDirectories(dir.resolve("sort"));
      Path file = dir.resolve("lineitem.srt");
      Files.writeString(file, "# sort directory of the idxbuild experiment\n0 " + sort + "\n");
      return SrtFile.parse(file);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot write the .srt file in " + dir, e);
    }
  }

  static RebuildReport rebuild(
      Database db, IdxbuildBench.Run r, SrtFile srt, long rows, IdxbuildBench.Config c) {
    Selection sel =
        r.pkOnly()
            ? new Selection(Set.of(), Set.of(), Set.of(Lineitem.PK), false)
            : new Selection(Set.of(Lineitem.TABLE), Set.of(), Set.of(), false);
    RebuildOptions o =
        RebuildOptions.defaults(srt)
            .withSelection(sel)
            .withThreads(r.threads(), r.threads(), r.threads())
            .withMemory(r.memory())
            .withMerge(
                RebuildOptions.DEFAULT_SORT_GROUPS,
                c.sortBlockKb(),
                c.mergeFanIn(),
                RebuildOptions.DEFAULT_BLOCK_KB);
    RebuildReport rep = new IndexRebuild(db, o, "--srt " + srt.file(), RebuildListener.NONE).run();
    int want = r.pkOnly() ? 1 : Lineitem.indexes(db).size();
    if (rep.indexes().size() != want) {
      throw new IllegalStateException(
          r.label() + ": rebuilt " + rep.indexes().size() + " indexes (expected: " + want + ")");
    }
    for (RebuildReport.IndexResult ix : rep.indexes()) {
      if (ix.entries() != rows) {
        throw new IllegalStateException(
            r.label()
                + ": "
                + ix.name()
                + " has "
                + ix.entries()
                + " entries (expected: "
                + rows
                + ", one per row)");
      }
    }
    if (!db.index(Lineitem.PK).isActive()) {
      throw new IllegalStateException(r.label() + ": " + Lineitem.PK + " is not active");
    }
    return rep;
  }

  static double phaseSeconds(RebuildReport r, String phase) {
    return r.phases().stream()
            .filter(p -> p.name().equals(phase))
            .mapToLong(RebuildReport.Phase::wallNanos)
            .sum()
        / 1e9;
  }

  static void print(
      PrintStream out, IdxbuildBench.Run r, RebuildReport rep, double load, long jitMillis) {
    long temp = rep.tempBytesPerDirectory().values().stream().mapToLong(Long::longValue).sum();
    int ranges = rep.indexes().stream().mapToInt(RebuildReport.IndexResult::ranges).max().orElse(1);
    out.printf(
        Locale.ROOT,
        "  idxkit %-12s scan %6.2f s, build %6.2f s, publish %5.2f s, total %6.2f s,"
            + " %,11.0f keys/s, CPU %6.2f s, runs %4d, temp %,8.1f MiB, passes %d, ranges %d"
            + " (load %.2f, JIT compilers %.2f s)%n",
        r.label(),
        phaseSeconds(rep, "scan"),
        phaseSeconds(rep, "build"),
        phaseSeconds(rep, "publish"),
        rep.totalNanos() / 1e9,
        rep.keysPerSecond(),
        rep.usage().cpuNanos() / 1e9,
        rep.runs(),
        temp / (double) (1 << 20),
        rep.mergePasses(),
        ranges,
        load,
        jitMillis < 0 ? -1 : jitMillis / 1e3); // -1: the JVM does not count compile time
  }

  static void record(ResultSheet s, IdxbuildBench.Run r, RebuildReport rep) {
    String cfg = r.label();
    s.add("idxkit", cfg, "scan", phaseSeconds(rep, "scan"), "s");
    s.add("idxkit", cfg, "build", phaseSeconds(rep, "build"), "s");
    s.add("idxkit", cfg, "publish", phaseSeconds(rep, "publish"), "s");
    s.add("idxkit", cfg, "total", rep.totalNanos() / 1e9, "s");
    s.add("idxkit", cfg, "keys/s", rep.keysPerSecond(), "keys/s");
    s.add("idxkit", cfg, "cpu", rep.usage().cpuNanos() / 1e9, "s (process)");
    s.add("idxkit", cfg, "runs", rep.runs(), "runs");
    s.add(
        "idxkit",
        cfg,
        "temp",
        rep.tempBytesPerDirectory().values().stream().mapToLong(Long::longValue).sum(),
        "bytes");
    s.add("idxkit", cfg, "merge passes", rep.mergePasses(), "passes");
    s.add(
        "idxkit",
        cfg,
        "ranges",
        rep.indexes().stream().mapToInt(RebuildReport.IndexResult::ranges).max().orElse(1),
        "key ranges of the biggest group");
  }
}
