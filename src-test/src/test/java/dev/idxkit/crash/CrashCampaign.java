package dev.idxkit.crash;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import java.nio.file.Path;

/**
 * One kind of work to kill: what a child JVM does until it is killed ({@link #work}), and how the
 * parent knows what the database must hold afterwards ({@link #model}). {@link CrashRunner} does
 * the rest - starting children, killing them, reopening, the generic acknowledged/in-flight rules
 * and the full {@code db.check()} - so a new campaign (loader kills, idxbuild kills) is one class.
 *
 * <p>The contract is built on <b>units</b>, numbered 1, 2, 3, ... in the order the child performs
 * them: a transaction, a bulk publish, a loader checkpoint. A unit is acknowledged ({@code ACK n})
 * only after the call that makes it durable returned. What unit n does must be a deterministic
 * function of (seed, n, the state after units 1..n-1), so the parent can replay it without the
 * child telling it anything but the numbers; the child replays units 1..u at startup the same way
 * to know where it is.
 *
 * <p>After a kill the runner asks the model how many units the database holds ({@link
 * Model#unitsIn}), checks that number against what was acknowledged (all of them, plus at most the
 * one in flight), and then has the model compare the whole database with its replay ({@link
 * Model#verify}): a unit that is there must be there completely, and nothing else may be.
 */
interface CrashCampaign {
  /** The campaign's name on the command line of the child and in summaries. */
  String name();

  /** Options the child (and the parent's verification) opens the database with. */
  DatabaseOptions options();

  /** Creates the database the campaign starts from, in an absent or empty directory. */
  void create(Path dir);

  /** As {@link #create(Path)}, for a campaign whose starting data depends on the seed. */
  default void create(Path dir, long seed) {
    create(dir);
  }

  /**
   * The fewest ACK lines a whole campaign of {@code kills} kills must see, or its checks were
   * vacuous; by default one per kill.
   */
  default long minAcknowledged(int kills) {
    return kills;
  }

  /**
   * The child's side: runs units on the open database forever, printing READY once and then BEGIN
   * and ACK for every unit (and PHASE lines where kills are interesting). Returns only by throwing.
   */
  void work(Database db, long seed, ChildLine.Out out) throws Exception;

  /** The parent's side: a model that follows the database across all kills of one campaign. */
  Model model(long seed);

  /** The child JVM's {@code -Xmx}; children are small and short-lived. */
  default String childHeap() {
    return "256m";
  }

  /** Most ACK lines a kill waits for; the runner draws 0..this many. */
  int maxAcksBeforeKill();

  /**
   * Where the next kill lands; by default {@link KillPlan#draw} (startup, recovery, READY or the
   * k-th ACK). A campaign with named steps worth aiming at draws {@link KillPlan#phase} plans too.
   */
  default KillPlan drawKill(java.util.SplittableRandom r) {
    return KillPlan.draw(r, maxAcksBeforeKill());
  }

  /** What the database must hold after units 1..n: a replay of the child's work. */
  interface Model {
    /**
     * Everything the killed child printed, before its database is examined: for a model that needs
     * more than unit numbers (the roots a rebuild published, the rows a checkpoint held).
     */
    default void observe(java.util.List<ChildLine> lines) {}

    /**
     * The rule for the units found: by default every acknowledged unit is there, plus at most the
     * one that had begun ({@link CrashRunner#checkUnits}). A campaign whose unit numbers are not
     * dense (a load's progress measure) replaces it; an {@link AssertionError} says what is wrong.
     */
    default void checkUnits(long units, long acked, long lastBegin) {
      CrashRunner.checkUnits(units, acked, lastBegin);
    }

    /**
     * After the checks of one kill passed: more work on the recovered copy (a rerun that must
     * complete). The copy is deleted afterwards.
     */
    default void afterKill(Path copy) {}

    /** After the last kill, on the campaign's own database (what the next real run would find). */
    default void finish(Path db) {}

    /** How the summary line shows a unit number: by default the number. */
    default String describeUnits(long units) {
      return String.format("%,d units", units);
    }

    /** Counts of the campaign's own for its summary line; empty for none. */
    default String summary() {
      return "";
    }

    /**
     * How many units the database holds, read from what the units leave behind (a ledger row, a
     * resume point). Must also check that what is there is a prefix 1..u, not a set with holes.
     */
    long unitsIn(Database db);

    /**
     * Advances the model to {@code units} (never backwards) and compares every table with it; an
     * {@link AssertionError} names the first differences. Returns the number of rows compared.
     */
    long verify(Database db, long units);
  }
}
