package dev.idxkit.crash;

import java.util.List;

/** The campaigns a child can run, by name; a new campaign is added here and in {@link CrashIT}. */
final class Campaigns {
  private Campaigns() {}

  static List<CrashCampaign> all() {
    return List.of(
        TxnCampaign.transactions(),
        TxnCampaign.checkpoints(),
        new BulkCampaign(),
        new IdxbuildCampaign(),
        new LoadCampaign());
  }

  static CrashCampaign byName(String name) {
    for (CrashCampaign c : all()) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "campaign : "
            + name
            + " (expected: one of "
            + all().stream().map(CrashCampaign::name).toList()
            + ")");
  }
}
