package dev.idxkit.loader;

/**
 * How a load treats an unfinished earlier load of the same table (one that left its resume point in
 * the database: it crashed, was cancelled or stopped at {@code maxErrors}).
 *
 * <ul>
 *   <li>{@link #NEW}: there must be none; if there is, the load is refused with an {@link
 *       dev.idxkit.core.InvalidInputException} (exit code 2) that says how far it got and to pass
 *       {@code --resume} or {@code --restart}. So a retry loop around a load that in fact finished
 *       cannot load the same rows twice.
 *   <li>{@link #RESUME}: continue the unfinished load from its last checkpoint: same input (checked
 *       against the identity the checkpoint recorded), same index mode, no row lost or repeated,
 *       the reject file cut back to its length at that checkpoint. Refused if there is nothing to
 *       resume.
 *   <li>{@link #RESTART}: start over. The rows the unfinished load appended are removed first: a
 *       bulk load ({@code DEFERRED}/{@code NONE}) only ever adds whole heap pages to the table, so
 *       its checkpoint records the table's pages and row count from before it, and the restart
 *       frees every page added since - exactly the interrupted load's rows, nothing else. Refused
 *       when the table changed since that checkpoint (its row count differs), and for an
 *       interrupted {@code LIVE} load, whose rows were inserted among the table's others and into
 *       its indexes: there the choices are to resume it or to rebuild the table. With no unfinished
 *       load, {@code RESTART} is the same as {@code NEW}.
 * </ul>
 */
public enum StartMode {
  NEW,
  RESUME,
  RESTART
}
