package dev.idxkit.jmh.peers;

import dev.idxkit.core.Catalog.IndexInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * {@code --pairs N} of the {@code idxbuild} experiment: PostgreSQL's six {@code CREATE INDEX} and
 * {@code idxkit idxbuild} in a new JVM, timed in turn N times, and the ratio taken pair by pair.
 *
 * <p>Why: on a shared machine whose speed drifts over minutes, PostgreSQL's one build after its
 * load and idxkit's command-line runs minutes before are timed at different speeds, and their ratio
 * moves with the drift (on the 2-vCPU machine of issue 14, PostgreSQL's six builds of SF 0.5 took
 * 13.1 s in one run and 8.1 s in another of the same six minutes). Two runs back to back see nearly
 * the same machine, so the median of the pairs' ratios is the figure a drift moves least; the
 * smallest and largest pair show the spread.
 *
 * <p>Steps, per pair: drop PostgreSQL's six indexes (untimed), write the machine's dirty pages back
 * ({@link Machine#syncDisks}, untimed), build the indexes again with the same DDL (timed, as the
 * first build), let PostgreSQL finish what it deferred ({@link SqlPeer#settle}: a checkpoint,
 * untimed), then one {@code idxkit idxbuild} of the six indexes in a new JVM ({@link IdxbuildCli},
 * which writes back first; its entry counts checked). The idxkit database must be closed (the
 * command takes its lock); PostgreSQL's table stays loaded.
 */
final class IdxbuildPairs {
  private IdxbuildPairs() {}

  /** The pairs' figures, in seconds and as ratios, in the order they ran. */
  record Result(double[] peerSeconds, double[] cliSeconds) {
    double[] ratios() {
      double[] r = new double[peerSeconds.length];
      for (int i = 0; i < r.length; i++) {
        r[i] = peerSeconds[i] / cliSeconds[i];
      }
      return r;
    }
  }

  /** The idxkit side of each pair: the command line's settings and where it runs. */
  record Cli(
      Path home,
      IdxbuildCli.Archive archive,
      Path db,
      Path srt,
      long memory,
      int threads,
      long rows,
      Path scratch) {}

  /**
   * {@code --pairs} of {@code c}: PostgreSQL (one of {@code peers}, which have built {@code
   * indexes} once) and the command line in turn, at the largest thread count and memory; skipped,
   * with a note, without PostgreSQL or a built command line.
   */
  static void runIfAsked(
      IdxbuildBench.Config c,
      ResultSheet sheet,
      PrintStream out,
      Machine machine,
      List<SqlPeer> peers,
      List<IndexInfo> indexes,
      Path db,
      Path srt,
      long rows,
      Path scratch)
      throws SQLException, IOException, InterruptedException {
    if (c.pairs() == 0) {
      return;
    }
    SqlPeer pg =
        peers.stream().filter(p -> p.name().equals(PostgresPeer.NAME)).findFirst().orElse(null);
    Path home = IdxbuildCli.home();
    if (pg == null || home == null) {
      String why =
          "--pairs: skipped, " + (pg == null ? "PostgreSQL did not run" : "no built command line");
      out.println("  " + why);
      sheet.note(why);
      return;
    }
    run(
        c.pairs(),
        pg,
        indexes.stream().map(IndexInfo::name).toList(),
        Lineitem.createIndexSql(indexes),
        new Cli(
            home,
            IdxbuildCli.Archive.forCds(c.cliCds(), home),
            db,
            srt,
            c.maxMemory(),
            c.maxThreads(),
            rows,
            scratch),
        machine,
        sheet,
        out);
  }

  /**
   * Runs {@code pairs} pairs of {@code peer} (which has built the indexes {@code names} once with
   * {@code ddl}) and the command line, records them in {@code sheet} under the peer and
   * configuration {@code "pairs"}, and prints each pair.
   */
  static Result run(
      int pairs,
      SqlPeer peer,
      List<String> names,
      List<String> ddl,
      Cli cli,
      Machine machine,
      ResultSheet sheet,
      PrintStream out)
      throws SQLException, IOException, InterruptedException {
    double[] peerSeconds = new double[pairs];
    double[] cliSeconds = new double[pairs];
    for (int i = 0; i < pairs; i++) {
      peer.dropIndexes(names);
      // Each side starts with nothing dirty (IdxbuildCli.run writes back before its run): the peer
      // writes its indexes without fsync, and their write-back would otherwise run under the
      // command line's rebuild.
      Machine.syncDisks();
      peerSeconds[i] =
          peer.createIndexes(names, ddl).values().stream().mapToLong(Long::longValue).sum() / 1e9;
      peer.settle();
      cliSeconds[i] =
          IdxbuildCli.run(
                  cli.home(),
                  List.of(cli.archive()),
                  cli.db(),
                  cli.srt(),
                  cli.memory(),
                  cli.threads(),
                  1,
                  cli.rows(),
                  Lineitem.TABLE_INDEXES,
                  cli.scratch(),
                  machine,
                  out)
              .get(0)
              .seconds()[0];
      out.printf(
          Locale.ROOT,
          "  pair %d: %s six CREATE INDEX %.2f s, idxkit idxbuild (new JVM) %.2f s: %.2fx (load"
              + " %.2f)%n",
          i + 1,
          peer.name(),
          peerSeconds[i],
          cliSeconds[i],
          peerSeconds[i] / cliSeconds[i],
          machine.sampleLoad());
    }
    Result r = new Result(peerSeconds, cliSeconds);
    record(sheet, peer.name(), r, out);
    return r;
  }

  private static void record(ResultSheet sheet, String peer, Result r, PrintStream out) {
    double[] ratios = r.ratios();
    sheet.add(
        peer,
        "pairs",
        "ratio",
        IdxbuildCli.median(ratios),
        "x (median pair: peer / idxkit new JVM)");
    sheet.add(peer, "pairs", "ratio min", IdxbuildCli.min(ratios), "x");
    sheet.add(peer, "pairs", "ratio max", IdxbuildCli.max(ratios), "x");
    sheet.add(peer, "pairs", "peer median", IdxbuildCli.median(r.peerSeconds()), "s");
    sheet.add(peer, "pairs", "idxkit median", IdxbuildCli.median(r.cliSeconds()), "s");
    sheet.add(peer, "pairs", "count", ratios.length, "pairs");
    String text =
        String.format(
            Locale.ROOT,
            "%d pairs in turn, %s six CREATE INDEX / idxkit idxbuild (new JVM): min %.2fx /"
                + " median %.2fx / max %.2fx (%s median %.2f s, idxkit median %.2f s)",
            ratios.length,
            peer,
            IdxbuildCli.min(ratios),
            IdxbuildCli.median(ratios),
            IdxbuildCli.max(ratios),
            peer,
            IdxbuildCli.median(r.peerSeconds()),
            IdxbuildCli.median(r.cliSeconds()));
    out.println("  " + text);
    sheet.note(text);
  }
}
