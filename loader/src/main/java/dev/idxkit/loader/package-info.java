/**
 * The bulk loader: rows from CSV, JSON Lines or the TPC-H generator into a table, restartable.
 *
 * <h2>For a command line</h2>
 *
 * A thin {@code idxkit load} maps its options onto {@link dev.idxkit.loader.LoadOptions} one by one
 * and prints the {@link dev.idxkit.loader.LoadReport}:
 *
 * <pre>
 * --csv FILE | --jsonl FILE | --tpch TABLE --sf N   LoadInput.csv / jsonLines / tpch
 * --delimiter --quote --null --no-header            CsvOptions
 * --index-build deferred|none|live                  withIndexMode (default deferred)
 * --resume / --restart                              withStartMode(RESUME / RESTART)
 * --checkpoint-rows N / --checkpoint-mb N           withCheckpointRows / withCheckpointMegabytes
 * --reject FILE / --max-errors N                    withRejectFile / withMaxErrors
 * --threads N                                       withParseThreads
 * </pre>
 *
 * {@code new Loader(db, options, indexBuild).run(listener)}: the listener drives a progress bar
 * ({@link dev.idxkit.loader.LoadProgress#fraction()}, {@code etaSeconds()}); a Ctrl-C handler calls
 * {@link dev.idxkit.loader.Loader#cancel()}; {@code report.summaryLines()} is the summary and
 * {@code report.outcome().exitCode()} the exit code (0 completed, 1 cancelled, too many errors, or
 * duplicate keys); an {@link dev.idxkit.core.IdxkitException} thrown by {@code run} exits 2 when
 * {@code isBadInput()} (a refused resume, a bad option, an input that does not match the table),
 * else 1. The messages name these options.
 *
 * <h2>What is stored where</h2>
 *
 * <ul>
 *   <li>Rows: heap pages of the table's area; in the bulk modes published at each checkpoint, in
 *       live mode committed per batch.
 *   <li>The checkpoint: a resume point {@code load:<table>} in the database's meta ({@link
 *       dev.idxkit.loader.internal.ResumeState} draws its bytes), published or committed together
 *       with the rows it counts, removed when the load completes. {@link
 *       dev.idxkit.loader.Loader#unfinishedLoad} describes it.
 *   <li>Rejects: the reject file, one line each ({@link dev.idxkit.loader.internal.RejectWriter}
 *       gives the format), cut back to its checkpointed length on resume.
 * </ul>
 *
 * <h2>Starting over</h2>
 *
 * {@link dev.idxkit.loader.StartMode#RESTART}: the interrupted bulk load's rows are removed (the
 * pages it added are freed, the table's row count restored) and the load starts from the top. A
 * live load cannot be undone that way; it can only be resumed. A completed load leaves no resume
 * point, so loading the same file again appends its rows a second time - as with {@code COPY}.
 *
 * <h2>CSV export</h2>
 *
 * {@link dev.idxkit.loader.CsvExport} writes a table as CSV that {@link
 * dev.idxkit.loader.input.CsvSource} reads back to the same rows: the library side of {@code idxkit
 * dump DB --table T --csv FILE}.
 */
package dev.idxkit.loader;
