package dev.idxkit.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill -9 crash harness: child JVMs doing durable work are killed with SIGKILL at random
 * moments, and after every kill the database must hold every acknowledged unit, at most the one in
 * flight and that one whole, and pass the full {@code db.check()}. See {@link CrashRunner} for the
 * steps and {@link CrashCampaign} for adding a campaign.
 *
 * <p>Campaigns: {@code txn} (SYNC transactions over three kinds of index), {@code checkpoint} (the
 * same with frequent automatic and explicit checkpoints), {@code bulk} (bulk-session publishes and
 * log transactions between sessions), {@code idxbuild} (index rebuilds killed in their scan, build
 * and publish phases; {@link IdxbuildCampaign}), {@code load} (CSV and TPC-H loads in the three
 * index modes killed anywhere, including the deferred index build, and resumed; {@link
 * LoadCampaign}). Default kills: 20 + 20 + 15 + 10 + 10; {@code -Dcrash.iterations=N} sets the
 * kills of every campaign (the long run: {@code -Dcrash.iterations=200}). {@code -Dtests.seed=S}
 * replays a run's workloads and kill plans (where exactly a kill lands still depends on timing). On
 * a failure the temporary directory is kept and its path printed.
 *
 * <p>Runs under Failsafe: {@code ./mvnw -B -pl src-test -am verify -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=CrashIT} (one campaign: {@code
 * -Dit.test='CrashIT#checkpoint'}); with {@code -am}, or the other modules come from {@code ~/.m2}.
 */
class CrashIT {
  static final long SEED = Seeds.seed();

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path tmp;

  @Test
  void txn() throws Exception {
    run(TxnCampaign.transactions(), 20);
  }

  @Test
  void checkpoint() throws Exception {
    run(TxnCampaign.checkpoints(), 20);
  }

  @Test
  void bulk() throws Exception {
    run(new BulkCampaign(), 15);
  }

  @Test
  void idxbuild() throws Exception {
    run(new IdxbuildCampaign(), 10);
  }

  @Test
  void load() throws Exception {
    run(new LoadCampaign(), 10);
  }

  private void run(CrashCampaign campaign, int defaultKills) throws Exception {
    int kills = Integer.getInteger("crash.iterations", defaultKills);
    String reproduce =
        Seeds.reproduce(SEED, getClass())
            + "; this campaign alone: ./mvnw -B -pl src-test -am verify -Dspotless.check.skip=true"
            + " -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test='CrashIT#"
            + campaign.name()
            + "' -Dtests.seed="
            + SEED
            + " -Dcrash.iterations="
            + kills;
    CrashRunner runner = new CrashRunner(kills, SEED, reproduce, tmp.resolve(campaign.name()));
    CrashRunner.Summary s = runner.run(campaign);
    assertThat(s.recoveries()).isEqualTo(kills);
    // A child that never got as far as acknowledging anything would make every check vacuous.
    assertThat(s.acknowledged())
        .as(s.line())
        .isGreaterThanOrEqualTo(campaign.minAcknowledged(kills));
  }
}
