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
 * dev.idxkit.crash.TxnCampaign} ({@code txn}, {@code checkpoint}) and {@link
 * dev.idxkit.crash.BulkCampaign} ({@code bulk}), their deterministic workloads {@link
 * dev.idxkit.crash.TxnWorkload} and {@link dev.idxkit.crash.BulkWorkload}.
 *
 * <p>Adding a campaign (loader kills, idxbuild kills): implement {@link
 * dev.idxkit.crash.CrashCampaign} - create the starting database, the child's endless work printing
 * BEGIN/ACK per unit, a model that counts the units in a database and compares it with a replay -
 * then list it in {@link dev.idxkit.crash.Campaigns} and add a test method to {@link
 * dev.idxkit.crash.CrashIT}.
 *
 * <p>What SIGKILL can and cannot show: the process dies at any instruction, but everything it wrote
 * to the OS survives in the page cache, so these campaigns test the order of writes, the atomicity
 * of what a crash leaves half done, and recovery - not fsync. A power-loss campaign would need a
 * file layer that forgets unsynced writes.
 */
package dev.idxkit.crash;
