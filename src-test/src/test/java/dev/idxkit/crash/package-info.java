/**
 * The kill -9 crash harness: child JVMs do durable work on a database and are killed with SIGKILL
 * at random moments; after each kill the parent recovers the database and checks that every
 * acknowledged unit of work is there, that the one in flight is whole or absent, and that {@code
 * db.check()} is clean.
 *
 * <p>Map: {@link dev.idxkit.crash.CrashIT} (the Failsafe entry point, one test per campaign) -
 * {@link dev.idxkit.crash.CrashRunner} (the kill loop and the rules shared by all campaigns) -
 * {@link dev.idxkit.crash.ChildJvm} and {@link dev.idxkit.crash.ChildLine} (the child process and
 * its line protocol) - {@link dev.idxkit.crash.KillPlan} (when to kill) - {@link
 * dev.idxkit.crash.CrashCampaign} (what a campaign supplies) with {@link
 * dev.idxkit.crash.TxnCampaign} ({@code txn}, {@code checkpoint}), {@link
 * dev.idxkit.crash.BulkCampaign} ({@code bulk}), {@link dev.idxkit.crash.IdxbuildCampaign} ({@code
 * idxbuild}: {@link dev.idxkit.crash.IdxbuildWorkload}, {@link dev.idxkit.crash.IdxbuildModel},
 * {@link dev.idxkit.crash.RebuildJournal}) and {@link dev.idxkit.crash.LoadCampaign} ({@code load}:
 * {@link dev.idxkit.crash.LoadWorkload}, {@link dev.idxkit.crash.LoadModel}, {@link
 * dev.idxkit.crash.LoadProgressCode}), with the deterministic workloads {@link
 * dev.idxkit.crash.TxnWorkload} and {@link dev.idxkit.crash.BulkWorkload}.
 *
 * <p>Adding a campaign: implement {@link dev.idxkit.crash.CrashCampaign} - create the starting
 * database, the child's endless work printing BEGIN/ACK per unit, a model that counts the units in
 * a database and compares it with a replay - then list it in {@link dev.idxkit.crash.Campaigns} and
 * add a test method to {@link dev.idxkit.crash.CrashIT}. A model may also read the child's other
 * lines ({@code observe}), replace the unit rule ({@code checkUnits}: the load campaign's units are
 * progress codes, not dense numbers), rerun work on each recovered copy ({@code afterKill}) and on
 * the final database ({@code finish}), and add counts to the summary line; a campaign may aim its
 * kills at named phases ({@code drawKill}, {@link dev.idxkit.crash.KillPlan#phase}).
 *
 * <p>Summaries: each campaign prints one line, {@code crash <name>: N kills, N recoveries, ...
 * failures, seed S}, on the build's console (src-test's Failsafe does not redirect test output).
 *
 * <p>Running the campaigns against the modules of this working tree: {@code ./mvnw -B -pl src-test
 * -am verify -Dit.test=CrashIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dfailsafe.failIfNoSpecifiedTests=false} (with {@code -am}; without it Maven takes the other
 * modules from {@code ~/.m2}, which a build of another working tree may have replaced).
 *
 * <p>What SIGKILL can and cannot show: the process dies at any instruction, but everything it wrote
 * to the OS survives in the page cache, so these campaigns test the order of writes, the atomicity
 * of what a crash leaves half done, and recovery - not fsync. A power-loss campaign would need a
 * file layer that forgets unsynced writes.
 */
package dev.idxkit.crash;
