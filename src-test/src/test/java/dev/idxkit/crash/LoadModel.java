package dev.idxkit.crash;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Index;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.testing.FileTrees;
import dev.idxkit.crash.LoadWorkload.Job;
import dev.idxkit.crash.TxnCampaign.Diffs;
import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadOutcome;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.StartMode;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.InputRow;
import dev.idxkit.loader.internal.ResumeState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parent's side of the {@code load} campaign: what the database must hold at a given {@link
 * LoadProgressCode}.
 *
 * <ul>
 *   <li>Every job before the newest, and the newest once done, equals a clean load of the same
 *       input in the same mode into a fresh database ({@link Snapshot}: rows, and per index whether
 *       it is active, its keys in index order and its rows) and has no resume point left.
 *   <li>The newest job while loading at record R: its table holds exactly the rows among the
 *       input's first R records, and the resume point counts exactly them and the rejects among
 *       them. Bulk loads keep the indexes inactive until the end; a live load keeps them active,
 *       each holding exactly the table's rows.
 *   <li>Building indexes: every row is in; the indexes are all inactive or all active (the deferred
 *       build publishes them together), and active ones equal the clean load's.
 *   <li>Created: the table is empty and has no resume point.
 * </ul>
 *
 * Units ({@link #checkUnits}): no acknowledged progress may be missing, and the database may not be
 * in a job the child had not begun. Expected records come from the loader's own reader over the
 * same input; references are computed once per job in {@code <campaign>/ref} and deleted.
 */
final class LoadModel implements CrashCampaign.Model {
  private final LoadWorkload w;
  private final Path refDir;
  private final Map<Integer, Snapshot> references = new HashMap<>();
  private final Map<Integer, List<InputRecord>> records = new HashMap<>();
  private final Map<String, Integer> jobsDone = new TreeMap<>();
  private long checkpointsVerified;

  LoadModel(LoadWorkload w, Path refDir) {
    this.w = w;
    this.refDir = refDir;
  }

  /** What a table holds, independent of where rows landed (RIDs, heap order). */
  record Snapshot(List<String> rows, Map<String, IndexView> indexes) {
    record IndexView(boolean active, List<String> keysInOrder, List<String> rows) {}

    static Snapshot of(Database db, String table) {
      List<String> rows = new ArrayList<>();
      try (RowCursor c = db.table(table).scan()) {
        c.forEachRemaining(r -> rows.add(IdxbuildModel.text(r.values())));
      }
      rows.sort(null);
      Map<String, IndexView> indexes = new TreeMap<>();
      for (IndexInfo ix : db.catalog().table(table).indexes()) {
        Index index = db.index(ix.name());
        if (!index.isActive()) {
          indexes.put(ix.name(), new IndexView(false, List.of(), List.of()));
          continue;
        }
        List<String> keys = new ArrayList<>();
        List<String> entries = new ArrayList<>();
        try (RowCursor c = index.scan()) {
          while (c.hasNext()) {
            Row r = c.next();
            keys.add(IdxbuildModel.text(ix.keyOf(r.values())));
            entries.add(IdxbuildModel.text(r.values()));
          }
        }
        entries.sort(null);
        indexes.put(ix.name(), new IndexView(true, keys, entries));
      }
      return new Snapshot(rows, indexes);
    }
  }

  @Override
  public long unitsIn(Database db) {
    return LoadProgressCode.of(db);
  }

  @Override
  public void checkUnits(long units, long acked, long lastBegin) {
    if (units < acked) {
      throw new AssertionError(
          "acknowledged progress is missing: the database holds "
              + LoadProgressCode.describe(units)
              + " but "
              + LoadProgressCode.describe(acked)
              + " was acknowledged");
    }
    int begun = Math.max(LoadProgressCode.job(acked), LoadProgressCode.job(lastBegin));
    if (LoadProgressCode.job(units) > begun) {
      throw new AssertionError(
          "the database holds "
              + LoadProgressCode.describe(units)
              + " but the child had begun job "
              + begun
              + " at most");
    }
  }

  @Override
  public long verify(Database db, long units) {
    Diffs diffs = new Diffs();
    int newest = LoadProgressCode.job(units);
    long compared = 0;
    for (int j = 1; j <= newest; j++) {
      Job job = w.job(j);
      int step = j < newest ? LoadProgressCode.DONE : LoadProgressCode.step(units);
      String where = "job " + j + " (" + job.mode() + (job.tpch() ? ", tpch" : ", csv") + ")";
      switch (step) {
        case LoadProgressCode.DONE -> {
          Snapshot s = Snapshot.of(db, job.table());
          if (!s.equals(reference(db, job))) {
            diffs.add(where + " differs from a clean load: " + differ(s, reference(db, job)));
          }
          if (LoadProgressCode.resumeState(db, j) != null) {
            diffs.add(where + " is done but still has a resume point");
          }
          compared += s.rows().size();
        }
        case LoadProgressCode.BUILDING -> compared += building(db, job, where, diffs);
        case LoadProgressCode.LOADING ->
            compared += loading(db, job, LoadProgressCode.records(units), where, diffs);
        default -> {
          if (db.table(job.table()).rowCount() != 0) {
            diffs.add(where + " has rows before its load began");
          }
        }
      }
    }
    diffs.throwIfAny("at " + LoadProgressCode.describe(units));
    jobsDone.clear();
    for (int j = 1; j <= newest; j++) {
      if (j < newest || LoadProgressCode.step(units) == LoadProgressCode.DONE) {
        jobsDone.merge(w.job(j).mode().name().toLowerCase(java.util.Locale.ROOT), 1, Integer::sum);
      }
    }
    return compared;
  }

  private long loading(Database db, Job job, long recordsRead, String where, Diffs diffs) {
    List<InputRecord> all = records(db, job);
    List<String> expected = new ArrayList<>();
    long rejects = 0;
    for (int i = 0; i < recordsRead && i < all.size(); i++) {
      if (all.get(i) instanceof InputRow row) {
        expected.add(IdxbuildModel.text(row.values()));
      } else {
        rejects++;
      }
    }
    expected.sort(null);
    Snapshot s = Snapshot.of(db, job.table());
    if (!s.rows().equals(expected)) {
      diffs.add(
          where
              + " at record "
              + recordsRead
              + " holds "
              + s.rows().size()
              + " rows, the input's first "
              + recordsRead
              + " records have "
              + expected.size());
    }
    ResumeState rs = LoadProgressCode.resumeState(db, job.j());
    if (rs.rowsLoaded() != expected.size() || rs.rejected() != rejects) {
      diffs.add(
          where
              + " resume point counts "
              + rs.rowsLoaded()
              + " rows and "
              + rs.rejected()
              + " rejects, expected "
              + expected.size()
              + " and "
              + rejects);
    }
    boolean live = job.mode() == dev.idxkit.loader.IndexMode.LIVE;
    for (var e : s.indexes().entrySet()) {
      if (e.getValue().active() != live) {
        diffs.add(where + " index " + e.getKey() + (live ? " is inactive" : " is active"));
      } else if (live && !e.getValue().rows().equals(s.rows())) {
        diffs.add(where + " index " + e.getKey() + " does not hold exactly the table's rows");
      }
    }
    checkpointsVerified++;
    return s.rows().size();
  }

  private long building(Database db, Job job, String where, Diffs diffs) {
    Snapshot s = Snapshot.of(db, job.table());
    Snapshot ref = reference(db, job);
    if (!s.rows().equals(ref.rows())) {
      diffs.add(where + " building indexes: rows differ from a clean load");
    }
    long active = s.indexes().values().stream().filter(Snapshot.IndexView::active).count();
    if (active != 0 && active != s.indexes().size()) {
      diffs.add(
          where + " building indexes: some indexes active, some not: " + s.indexes().keySet());
    }
    if (active != 0 && !s.indexes().equals(ref.indexes())) {
      diffs.add(where + " building indexes: the active indexes differ from a clean load");
    }
    return s.rows().size();
  }

  private List<InputRecord> records(Database db, Job job) {
    return records.computeIfAbsent(
        job.j(), j -> w.records(job, db.catalog().table(job.table()).def()));
  }

  /** A clean load of the job into a fresh database, once per job. */
  private Snapshot reference(Database db, Job job) {
    Snapshot s = references.get(job.j());
    if (s != null) {
      return s;
    }
    Path dir = refDir.resolve("job-" + job.j());
    FileTrees.delete(dir);
    try {
      java.nio.file.Files.createDirectories(refDir.resolve("sort"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    try (Database ref = Database.create(dir)) {
      w.start(ref, job);
      LoadReport r =
          new Loader(
                  ref,
                  w.options(job, StartMode.NEW),
                  LoadWorkload.indexBuild(refDir.resolve("sort")))
              .run(LoadListener.NONE);
      if (r.outcome() != LoadOutcome.COMPLETED) {
        throw new AssertionError("the clean reference load of job " + job.j() + ": " + r.outcome());
      }
      s = Snapshot.of(ref, job.table());
    } finally {
      FileTrees.delete(dir);
    }
    references.put(job.j(), s);
    return s;
  }

  private static String differ(Snapshot a, Snapshot b) {
    if (!a.rows().equals(b.rows())) {
      return a.rows().size() + " rows vs " + b.rows().size();
    }
    for (String ix : b.indexes().keySet()) {
      if (!b.indexes().get(ix).equals(a.indexes().get(ix))) {
        return "index " + ix + " (active " + a.indexes().get(ix).active() + ")";
      }
    }
    return "index set " + a.indexes().keySet() + " vs " + b.indexes().keySet();
  }

  @Override
  public String describeUnits(long units) {
    return LoadProgressCode.describe(units);
  }

  @Override
  public String summary() {
    return "jobs complete "
        + jobsDone
        + ", half-done loads verified against their input "
        + checkpointsVerified;
  }
}
