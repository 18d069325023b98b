package dev.idxkit.crash;

import dev.idxkit.core.Database;
import java.nio.file.Path;

/**
 * The JVM that gets killed: {@code CrashChild <db dir> <campaign> <seed>} prints {@code OPEN},
 * opens the database read-only and closes it again (warm-up), prints {@code PHASE recovery}, opens
 * it read-write (recovering whatever the previous child left and checkpointing), and hands it to
 * the campaign's {@link CrashCampaign#work}, which runs units until the runner kills the process
 * with SIGKILL.
 *
 * <p>It never ends on its own: any exception is a failure, reported on stderr with exit code 3 so
 * the runner can tell it from a kill (137).
 */
public final class CrashChild {
  /** Exit code of a child that failed by itself (a kill gives 128 + 9). */
  static final int FAILED = 3;

  private CrashChild() {}

  public static void main(String[] args) {
    if (args.length != 3) {
      System.err.println("usage: CrashChild <db dir> <campaign> <seed>");
      System.exit(2);
    }
    try {
      Path dir = Path.of(args[0]);
      CrashCampaign campaign = Campaigns.byName(args[1]);
      long seed = Long.parseLong(args[2]);
      ChildLine.Out out = new ChildLine.Out(System.out);
      out.open();
      // A read-only open recovers in memory and writes nothing; it loads and warms the classes, so
      // that what follows PHASE recovery is the real recovery and its checkpoint, and kills aimed
      // there land there.
      Database.open(dir, campaign.options().readOnly()).close();
      out.phase("recovery");
      try (Database db = Database.open(dir, campaign.options())) {
        campaign.work(db, seed, out);
      }
      throw new IllegalStateException("campaign " + campaign.name() + " stopped working");
    } catch (Throwable t) {
      System.err.println("crash child failed: " + t);
      t.printStackTrace(System.err);
      System.err.flush();
      Runtime.getRuntime().halt(FAILED);
    }
  }
}
