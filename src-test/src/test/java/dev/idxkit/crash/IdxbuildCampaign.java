package dev.idxkit.crash;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.Durability;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Campaign {@code idxbuild}: the child rebuilds indexes in a loop ({@link IdxbuildWorkload#plan})
 * and is killed in each phase of a rebuild - scan, build (merge and tree build), publish.
 *
 * <p>Child, per unit n: journal {@code BEGIN n} with the current roots ({@link RebuildJournal}),
 * print {@code BEGIN n}, run {@link IndexRebuild} with sort files in {@link #sortDir} and a
 * listener that prints {@code PHASE scan}, {@code PHASE build} and, when the build phase ends,
 * {@code PHASE publish} (freeing the old trees, the meta write); when it returns, check that the
 * sort directory is empty (a failure ends the child with exit 3, which the runner reports), journal
 * {@code DONE n}, print {@code ROOTS n ...}, {@code REPORT n runs= passes= ranges=} and {@code ACK
 * n}. The listener's warning about deleted leftovers becomes {@code LEFTOVERS k}: the first rebuild
 * after a kill finds the sort files the killed child could not delete, and deletes them.
 *
 * <p>Kills ({@link #drawKill}): nine in ten after the 1st to 3rd {@code PHASE scan}, {@code build}
 * or {@code publish} line, each phase equally often, with a delay drawn within that phase's usual
 * length; the rest as {@link KillPlan#draw} (startup, recovery, between rebuilds).
 *
 * <p>Parent: {@link IdxbuildModel}. Sizes: {@code -Dcrash.idxbuild.items} and {@code
 * -Dcrash.idxbuild.big}.
 */
final class IdxbuildCampaign implements CrashCampaign {
  private static final Pattern DELETED = Pattern.compile("^deleted (\\d+) sort file");

  private Map<String, Long> initialRoots;

  @Override
  public String name() {
    return "idxbuild";
  }

  @Override
  public DatabaseOptions options() {
    return DatabaseOptions.defaults().withPageSize(4096).withDurability(Durability.SYNC);
  }

  @Override
  public int maxAcksBeforeKill() {
    return 3;
  }

  @Override
  public KillPlan drawKill(SplittableRandom r) {
    if (r.nextInt(10) == 0) {
      return KillPlan.draw(r, maxAcksBeforeKill());
    }
    int count = 1 + r.nextInt(3);
    return switch (r.nextInt(3)) {
      case 0 -> KillPlan.phase("scan", count, r.nextLong(150_000_000L));
      case 1 -> KillPlan.phase("build", count, r.nextLong(400_000_000L));
      default -> KillPlan.phase("publish", count, r.nextInt(3) == 0 ? 0 : r.nextLong(5_000_000L));
    };
  }

  @Override
  public long minAcknowledged(int kills) {
    // Most kills land inside the first rebuilds of a child; acknowledged ones must still occur.
    return Math.max(1, kills / 3);
  }

  /** Where the child's rebuilds put their sort files: beside the database. */
  static Path sortDir(Path db) {
    return db.resolveSibling("sort");
  }

  static Path journal(Path db) {
    return db.resolveSibling("idxbuild.journal");
  }

  /** The count in the rebuild's "deleted N sort file(s) left by ..." warning, else 0. */
  static int leftoverCount(String warning) {
    Matcher m = DELETED.matcher(warning);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  @Override
  public void create(Path dir) {
    create(dir, 0);
  }

  @Override
  public void create(Path dir, long seed) {
    try (Database db = Database.create(dir, options())) {
      new IdxbuildWorkload(seed).populate(db);
      // The roots as the close leaves them: its checkpoint merges the change buffers first.
      db.checkpoint();
      initialRoots = IdxbuildModel.roots(db);
    }
    try {
      Files.createDirectories(sortDir(dir));
      Files.deleteIfExists(journal(dir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void work(Database db, long seed, ChildLine.Out out) throws IOException {
    IdxbuildWorkload w = new IdxbuildWorkload(seed);
    Path sort = sortDir(db.dir());
    RebuildJournal journal = new RebuildJournal(journal(db.dir()));
    long u = journal.recover(IdxbuildModel.roots(db), w);
    out.ready(u);
    out.say("ROOTS " + u + " " + RebuildJournal.format(IdxbuildModel.roots(db)));
    RebuildListener listener =
        new RebuildListener() {
          @Override
          public void phaseStarted(String phase, long totalUnits, String unit) {
            out.phase(phase);
          }

          @Override
          public void phaseFinished(RebuildReport.Phase phase) {
            if (phase.name().equals("build")) {
              out.phase("publish");
            }
          }

          @Override
          public void warning(String message) {
            int k = leftoverCount(message);
            out.say(k > 0 ? "LEFTOVERS " + k : "WARNING " + message);
          }
        };
    while (true) {
      long n = u + 1;
      IdxbuildWorkload.Plan plan = w.plan(n);
      journal.begin(n, IdxbuildModel.roots(db));
      out.begin(n);
      RebuildReport report = new IndexRebuild(db, plan.options(sort), "crash", listener).run();
      IdxbuildModel.assertEmpty(sort, "after rebuild " + n + " returned");
      Map<String, Long> roots = IdxbuildModel.roots(db);
      journal.done(n, roots);
      out.say("ROOTS " + n + " " + RebuildJournal.format(roots));
      int ranges = 1;
      for (RebuildReport.IndexResult ix : report.indexes()) {
        ranges = Math.max(ranges, ix.ranges());
      }
      out.say(
          "REPORT "
              + n
              + " runs="
              + report.runs()
              + " passes="
              + report.mergePasses()
              + " ranges="
              + ranges);
      out.ack(n);
      u = n;
    }
  }

  @Override
  public Model model(long seed) {
    if (initialRoots == null) {
      throw new IllegalStateException("create() first: the model starts from the created roots");
    }
    return new IdxbuildModel(new IdxbuildWorkload(seed), initialRoots);
  }
}
