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

  /**
   * The child's side: runs units on the open database forever, printing READY once and then BEGIN
   * and ACK for every unit (and PHASE lines where kills are interesting). Returns only by throwing.
   */
  void work(Database db, long seed, ChildLine.Out out) throws Exception;

  /** The parent's side: a model that follows the database across all kills of one campaign. */
  Model model(long seed);

  /** Most ACK lines a kill waits for; the runner draws 0..this many. */
  int maxAcksBeforeKill();

  /** What the database must hold after units 1..n: a replay of the child's work. */
  interface Model {
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
