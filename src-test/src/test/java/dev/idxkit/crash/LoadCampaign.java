package dev.idxkit.crash;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.Durability;
import dev.idxkit.crash.LoadWorkload.Job;
import dev.idxkit.loader.IndexBuild;
import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadPhase;
import dev.idxkit.loader.LoadProgress;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.StartMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Campaign {@code load}: the child runs the jobs of {@link LoadWorkload} one after the other - CSV
 * and TPC-H inputs, deferred, none and live index modes, a checkpoint every few hundred records -
 * and is killed at random moments: between and inside checkpoints, during the deferred index build,
 * during recovery and startup. Every child resumes the unfinished load ({@code StartMode.RESUME},
 * what {@code idxkit load --resume} does) before starting the next job.
 *
 * <p>Unit numbers are {@link LoadProgressCode}s read from the database. The child prints {@code
 * READY} with the code it finds, {@code BEGIN} with a job's code before creating its table, and
 * {@code ACK} with the database's code after every step the loader reports durable: the table
 * created, the first checkpoint ({@code LoadListener.phase(LOADING)}), each checkpoint, all rows in
 * ({@code phase(BUILDING_INDEXES)}), and the load's return. The deferred build announces itself
 * with {@code PHASE index-build}; a fifth of the kills aim just after it.
 *
 * <p>Parent: {@link LoadModel}.
 */
final class LoadCampaign implements CrashCampaign {
  private Path dir;

  @Override
  public String name() {
    return "load";
  }

  @Override
  public DatabaseOptions options() {
    return DatabaseOptions.defaults().withDurability(Durability.SYNC);
  }

  /** The TPC-H generator's text pool alone takes 300 MB. */
  @Override
  public String childHeap() {
    return "700m";
  }

  @Override
  public int maxAcksBeforeKill() {
    return 14;
  }

  @Override
  public KillPlan drawKill(SplittableRandom r) {
    if (r.nextInt(5) == 0) {
      return KillPlan.phase("index-build", 1, r.nextLong(300_000_000L));
    }
    return KillPlan.draw(r, maxAcksBeforeKill());
  }

  static Path inputs(Path db) {
    return db.resolveSibling("inputs");
  }

  static Path sortDir(Path db) {
    return db.resolveSibling("load-sort");
  }

  @Override
  public void create(Path dir) {
    this.dir = dir;
    Database.create(dir, options()).close();
    try {
      Files.createDirectories(sortDir(dir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void work(Database db, long seed, ChildLine.Out out) {
    LoadWorkload w = new LoadWorkload(seed, inputs(db.dir()));
    IndexBuild build = announced(LoadWorkload.indexBuild(sortDir(db.dir())), out);
    long code = LoadProgressCode.of(db);
    out.ready(code);
    while (true) {
      int j = LoadProgressCode.job(code);
      if (j == 0 || LoadProgressCode.step(code) == LoadProgressCode.DONE) {
        j++;
        out.begin(LoadProgressCode.of(j, LoadProgressCode.CREATED, 0));
        w.start(db, w.job(j));
        code = LoadProgressCode.of(db);
        out.ack(code);
      }
      Job job = w.job(j);
      StartMode start =
          LoadProgressCode.step(code) == LoadProgressCode.CREATED
              ? StartMode.NEW
              : StartMode.RESUME;
      LoadReport r = new Loader(db, w.options(job, start), build).run(acks(db, out));
      if (r.outcome() != dev.idxkit.loader.LoadOutcome.COMPLETED) {
        throw new IllegalStateException("job " + j + " ended " + r.outcome());
      }
      code = LoadProgressCode.of(db);
      out.ack(code);
    }
  }

  /** ACK the database's progress after every step the loader reports durable. */
  private static LoadListener acks(Database db, ChildLine.Out out) {
    return new LoadListener() {
      @Override
      public void phase(LoadPhase phase) {
        if (phase == LoadPhase.LOADING || phase == LoadPhase.BUILDING_INDEXES) {
          out.ack(LoadProgressCode.of(db));
        }
      }

      @Override
      public void checkpoint(LoadProgress progress) {
        out.ack(LoadProgressCode.of(db));
      }
    };
  }

  private static IndexBuild announced(IndexBuild real, ChildLine.Out out) {
    return (db, names, listener) -> {
      out.phase("index-build");
      return real.build(db, names, listener);
    };
  }

  @Override
  public Model model(long seed) {
    if (dir == null) {
      throw new IllegalStateException("create() first");
    }
    return new LoadModel(new LoadWorkload(seed, inputs(dir)), dir.resolveSibling("ref"));
  }
}
