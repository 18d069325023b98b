/**
 * Side-by-side experiments against other stores, each a program with a {@code main}: the same data
 * and the same operations on idxkit and, in the same JVM run, on its peers, with every store's
 * answers checked, the figures written as CSV, JSON and a PNG chart, and a table of ratios and the
 * issue's goals printed at the end.
 *
 * <table>
 *   <caption>The experiments</caption>
 *   <tr><th>name</th><th>class</th><th>what</th><th>peers</th></tr>
 *   <tr><td>{@code compare}</td><td>{@link dev.idxkit.jmh.peers.CompareBench}</td>
 *       <td>bulk build of 10 M 8-byte keys, random point lookups, 100-entry range scans</td>
 *       <td>SQLite, H2 MVStore, RocksDB, LMDB, MapDB</td></tr>
 *   <tr><td>{@code idxbuild}</td><td>{@link dev.idxkit.jmh.peers.IdxbuildBench}</td>
 *       <td>rebuild of the six TPC-H lineitem indexes: 1/2 threads, 2 GiB/64 MiB, primary key
 *       alone</td>
 *       <td>SQLite, H2 ({@code CREATE INDEX})</td></tr>
 *   <tr><td>{@code load}</td><td>{@link dev.idxkit.jmh.peers.LoadBench}</td>
 *       <td>lineitem from the generator and from CSV with the deferred build of the six indexes</td>
 *       <td>SQLite (prepared inserts), H2 ({@code CSVREAD})</td></tr>
 * </table>
 *
 * <h2>Running</h2>
 *
 * <pre>
 * ./mvnw -B -q -pl jmh -am package -DskipTests -Dspotless.check.skip=true
 * java -Xmx4g $(cat cli/target/jvm.args) -cp jmh/target/benchmarks.jar \
 *     dev.idxkit.jmh.peers.CompareBench [--keys 10000000] [--out DIR] ...
 * </pre>
 *
 * ({@code -am}: the shaded jar must hold this checkout's core, idxbuild and loader, not whatever a
 * previous {@code install} left in the local Maven repository.) Every option is {@code --name
 * value}; a misspelt one is an error ({@link dev.idxkit.core.InvalidInputException}, a bad-input
 * error). Each class's comment lists its options and defaults. Common ones: {@code --out DIR}
 * (default {@code bench-results/<name>}), {@code --work DIR} (where the databases go; default a
 * fresh directory under {@code -Didxkit.bench.dir} or {@code java.io.tmpdir}, deleted at the end),
 * {@code --seed N}.
 *
 * <h2>Output</h2>
 *
 * {@code <out>/<name>.csv} (one line per figure, ratio and goal), {@code <name>.json} (the same
 * with parameters, machine, load average and each store's settings), {@code <name>.png}. The
 * layouts are in {@link dev.idxkit.jmh.peers.ResultSheet}.
 *
 * <h2>Fairness rules</h2>
 *
 * Every store of a run gets the same data (the same keys, or the same lineitem rows through one CSV
 * file written from idxkit's table) and the same operations in the same order; peers use their own
 * bulk paths (SstFileWriter, MDB_APPEND, createFromSink, MVMap.append, CSVREAD, prepared inserts in
 * big transactions) and their fastest safe-enough settings, each written next to the figures; cache
 * budgets are the same where a store has a cache. Every store's results are checked ({@link
 * dev.idxkit.jmh.peers.KvWorkload}, {@link dev.idxkit.jmh.peers.CrossCheck}) so a wrong answer
 * fails the run instead of producing a figure. Timings are wall clock with the process's (or
 * reading thread's) CPU time beside them, because the machines these run on are shared.
 */
package dev.idxkit.jmh.peers;
