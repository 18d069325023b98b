package dev.idxkit.crash;

import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseCheck;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs one {@link CrashCampaign}: creates its database, then for each kill starts a child JVM on
 * it, kills it with SIGKILL at a random moment ({@link KillPlan}), and checks what it left.
 *
 * <p>Steps per kill:
 *
 * <ol>
 *   <li>Start {@link CrashChild} on the campaign's database (it recovers what the last child left,
 *       so kills also land inside recovery) and read its lines until the plan's line; wait the
 *       plan's delay; SIGKILL; wait for the exit (code 137, or the child failed by itself) and for
 *       its last lines.
 *   <li>Copy the database as the kill left it (every file but {@code lock}) and open the copy:
 *       recovery runs here, in the parent; the original stays untouched for the next child and, on
 *       a failure, for a human.
 *   <li>The rules every campaign shares: with A the highest unit ever acknowledged, the database
 *       holds units 1..u with u = A, or u = A + 1 if unit A + 1 had begun (the one in flight, which
 *       must then be whole). A child's {@code READY u} must equal what the previous verification
 *       found: the child's own recovery agrees with the parent's.
 *   <li>The campaign's model compares every table with its replay of units 1..u; then {@code
 *       db.check()} (heap, every index entry against its row, page accounting, checksums) must be
 *       clean.
 * </ol>
 *
 * <p>The first failure stops the campaign with an {@link AssertionError} naming the kill, the seed,
 * the kept directories, the child's last lines and its stderr. Disk: the database and one
 * verification copy; memory: the campaign's model.
 *
 * @param kills kills to perform
 * @param testSeed the run's seed ({@code -Dtests.seed}); each campaign derives its own from it
 * @param reproduce how to rerun this campaign, for failure messages
 * @param workDir where the database, its verification copy and the child's stderr live
 */
record CrashRunner(int kills, long testSeed, String reproduce, Path workDir) {
  /** No child may go this long without printing its next awaited line (a hang, not slowness). */
  static final long LINE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);

  /** What one campaign did, for its summary line. */
  record Summary(
      String campaign,
      int kills,
      int recoveries,
      long acknowledged,
      String units,
      int inFlightWhole,
      int inFlightAbsent,
      long rowsCompared,
      Map<String, Integer> killPhases,
      int failures,
      long elapsedMillis,
      long seed,
      String extra) {
    String line() {
      return String.format(
          "crash %s: %,d kills, %,d recoveries, %,d acknowledged units verified (the database"
              + " holds %s), in flight at the kill: %d whole, %d absent; %,d rows compared; kill"
              + " points %s;%s %d failures; %.1f s; seed %d",
          campaign,
          kills,
          recoveries,
          acknowledged,
          units,
          inFlightWhole,
          inFlightAbsent,
          rowsCompared,
          killPhases,
          extra.isEmpty() ? "" : " " + extra + ";",
          failures,
          elapsedMillis / 1000.0,
          seed);
    }
  }

  /** What the child printed before it died. */
  private record ChildRun(
      int exit,
      long ready,
      int acks,
      long lastAck,
      long lastBegin,
      String phase,
      List<ChildLine> lines) {
    static ChildRun of(int exit, List<ChildLine> lines) {
      long ready = -1;
      int acks = 0;
      long ack = -1;
      long begin = -1;
      String phase = "jvm start";
      for (ChildLine l : lines) {
        if (l.is(ChildLine.READY)) {
          ready = l.unit();
        } else if (l.is(ChildLine.ACK)) {
          acks++;
          ack = Math.max(ack, l.unit());
        } else if (l.is(ChildLine.BEGIN)) {
          begin = Math.max(begin, l.unit());
        }
        if (!l.is(ChildLine.OTHER)) {
          phase = l.phase();
        }
      }
      return new ChildRun(exit, ready, acks, ack, begin, phase, lines);
    }
  }

  /** Counts across the kills of one campaign. */
  private static final class Tally {
    final long started = System.nanoTime();
    final Map<String, Integer> phases = new TreeMap<>();
    int kills;
    int recoveries;
    long acknowledged;
    long units;
    int whole;
    int absent;
    long rows;

    Summary summary(String campaign, int failures, long seed, CrashCampaign.Model model) {
      return new Summary(
          campaign,
          kills,
          recoveries,
          acknowledged,
          model.describeUnits(units),
          whole,
          absent,
          rows,
          phases,
          failures,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
          seed,
          model.summary());
    }
  }

  Summary run(CrashCampaign campaign) throws IOException, InterruptedException {
    Path db = workDir.resolve("db");
    Path copy = workDir.resolve("verify");
    Path stderr = workDir.resolve("child.err");
    Tally tally = new Tally();
    long seed = campaignSeed(testSeed, campaign);
    campaign.create(db, seed);
    CrashCampaign.Model model = campaign.model(seed);
    SplittableRandom plans = new SplittableRandom(TxnWorkload.mix(seed, -1));
    for (int k = 1; k <= kills; k++) {
      KillPlan plan = campaign.drawKill(plans);
      ChildRun run;
      try (ChildJvm child =
          ChildJvm.start(
              db,
              campaign.name(),
              seed,
              campaign.childHeap(),
              stderr,
              "crash-" + campaign.name() + "-" + k)) {
        run = drive(child, plan);
      }
      tally.kills = k;
      try {
        verifyKill(campaign, model, run, db, copy, tally);
      } catch (AssertionError | RuntimeException e) {
        System.out.println(tally.summary(campaign.name(), 1, testSeed, model).line());
        String where = "kill " + k + " of " + kills + " (" + plan + ", in " + run.phase() + ")";
        throw new AssertionError(failure(campaign, where, run, db, copy, stderr, e), e);
      }
      FileTrees.delete(copy);
    }
    try {
      model.finish(db);
    } catch (AssertionError | RuntimeException e) {
      System.out.println(tally.summary(campaign.name(), 1, testSeed, model).line());
      throw new AssertionError(
          "crash campaign "
              + campaign.name()
              + " failed after its last kill: "
              + e.getMessage()
              + "\n"
              + reproduce
              + "\nthe database: "
              + db,
          e);
    }
    Summary s = tally.summary(campaign.name(), 0, testSeed, model);
    System.out.println(s.line());
    return s;
  }

  /** Steps 2-4 of the class comment for one kill; an {@link AssertionError} names what is wrong. */
  private static void verifyKill(
      CrashCampaign campaign,
      CrashCampaign.Model model,
      ChildRun run,
      Path db,
      Path copy,
      Tally tally)
      throws IOException {
    if (run.exit() != ChildJvm.SIGKILL_EXIT) {
      throw new AssertionError(
          "the child ended with exit code " + run.exit() + " instead of being killed");
    }
    if (run.ready() >= 0 && run.ready() != tally.units) {
      throw new AssertionError(
          "the child recovered "
              + run.ready()
              + " units, the parent's recovery of the previous kill found "
              + tally.units);
    }
    copy(db, copy);
    long acked = Math.max(tally.units, run.lastAck());
    long units;
    model.observe(run.lines());
    try (Database d = Database.open(copy, campaign.options())) {
      tally.recoveries++;
      units = model.unitsIn(d);
      model.checkUnits(units, acked, run.lastBegin());
      tally.rows += model.verify(d, units);
      DatabaseCheck.Report report = d.check();
      if (!report.clean()) {
        throw new AssertionError("db.check() finds: " + String.join("; ", report.problems()));
      }
    }
    model.afterKill(copy);
    if (run.lastBegin() > acked) {
      if (units > acked) {
        tally.whole++;
      } else {
        tally.absent++;
      }
    }
    tally.units = units;
    tally.acknowledged += run.acks();
    tally.phases.merge(run.phase(), 1, Integer::sum);
  }

  /** The campaign's own seed: campaigns draw independent histories from one test seed. */
  static long campaignSeed(long testSeed, CrashCampaign campaign) {
    return TxnWorkload.mix(testSeed, campaign.name().hashCode());
  }

  /** Reads lines until the plan's one, waits its delay, kills; returns what the child printed. */
  private ChildRun drive(ChildJvm child, KillPlan plan) throws InterruptedException {
    long deadline = System.nanoTime() + LINE_TIMEOUT_NANOS;
    int acks = 0;
    int phases = 0;
    for (ChildLine l = child.next(deadline); l != null; l = child.next(deadline)) {
      if (l.is(ChildLine.ACK)) {
        acks++;
      }
      if (plan.isPhase(l)) {
        phases++;
      }
      if (plan.isTarget(l, acks, phases)) {
        TimeUnit.NANOSECONDS.sleep(plan.delayNanos());
        break;
      }
    }
    int exit = child.kill();
    if (child.readFailure() != null) {
      throw new AssertionError("reading the child's stdout failed", child.readFailure());
    }
    return ChildRun.of(exit, child.lines());
  }

  /** The shared rule: every acknowledged unit is there, plus at most the one that had begun. */
  static void checkUnits(long units, long acked, long lastBegin) {
    if (units < acked) {
      throw new AssertionError(
          "acknowledged unit "
              + (units + 1)
              + " is missing: the database holds units 1.."
              + units
              + " but units up to "
              + acked
              + " were acknowledged");
    }
    if (units > acked + 1 || (units == acked + 1 && lastBegin < units)) {
      throw new AssertionError(
          "the database holds units 1.."
              + units
              + " but only 1.."
              + acked
              + " were acknowledged and the last begun was "
              + lastBegin);
    }
  }

  private String failure(
      CrashCampaign campaign,
      String where,
      ChildRun run,
      Path db,
      Path copy,
      Path stderr,
      Throwable e) {
    List<ChildLine> lines = run.lines();
    StringBuilder b = new StringBuilder();
    b.append("crash campaign ").append(campaign.name()).append(" failed at ").append(where);
    b.append(":\n  ").append(e.getMessage());
    b.append("\n").append(reproduce);
    b.append("\nthe database as the kill left it: ").append(db);
    b.append("\nthe copy the parent recovered and checked: ").append(copy);
    b.append("\nchild's last lines:");
    for (ChildLine l : lines.subList(Math.max(0, lines.size() - 12), lines.size())) {
      b.append("\n  | ").append(l.text());
    }
    b.append("\nchild's stderr (").append(stderr).append("):\n").append(childStderr(stderr));
    return b.toString();
  }

  private static String childStderr(Path stderr) {
    try {
      List<String> all = Files.readAllLines(stderr);
      return String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size()));
    } catch (IOException e) {
      return "(cannot read: " + e + ")";
    }
  }

  /** What a crash left: every file but the lock (the dead child's lock is gone with it). */
  private static void copy(Path from, Path to) throws IOException {
    FileTrees.delete(to);
    CrashCopy.of(from, to);
  }
}
