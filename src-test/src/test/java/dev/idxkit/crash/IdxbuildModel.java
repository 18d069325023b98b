package dev.idxkit.crash;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseCheck;
import dev.idxkit.core.Index;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.KeyEncoder;
import dev.idxkit.core.testing.FileTrees;
import dev.idxkit.crash.TxnCampaign.Diffs;
import dev.idxkit.idxbuild.IndexRebuild;
import dev.idxkit.idxbuild.RebuildListener;
import dev.idxkit.idxbuild.RebuildOptions;
import dev.idxkit.idxbuild.temp.SrtFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The parent's side of the {@code idxbuild} campaign: which rebuilds the database holds, read from
 * its index roots, and whether every index still holds exactly one entry per row.
 *
 * <p>Units: the roots after unit n are known from the child's {@code ROOTS n} lines (printed after
 * each publish, before its ACK, and at READY) or from the previous kill's verification. If the
 * database's roots are those of the last known unit L, it holds L; if they differ exactly on the
 * indexes rebuild L + 1 selects (every one of them moved, no other one did) and L + 1 had begun, it
 * holds L + 1; anything else - some of the selection moved and some not - is a torn publish and
 * fails. So the rule "the indexes are either all the old trees or all the new ones" is checked at
 * every kill.
 *
 * <p>Contents: every index is active; the table scans equal the rows the workload inserted; every
 * index scans to the same rows (one entry per row, none lost, none extra) in strictly increasing
 * {@code key || rid} order; point lookups through both unique indexes find their row.
 *
 * <p>After the checks, the recovered copy is rebuilt once more (all indexes, its own sort
 * directory), which must complete, pass {@code db.check()} and leave that directory empty. After
 * the last kill, {@link #finish} rebuilds the campaign's own database as the next DBA run would: it
 * must delete the sort files the killed child left ({@code LEFTOVERS} counts them) and leave none.
 */
final class IdxbuildModel implements CrashCampaign.Model {
  private final IdxbuildWorkload w;
  private final Map<Long, Map<String, Long>> roots = new TreeMap<>();
  private final List<String> itemTexts;
  private final List<String> bigTexts;
  private long begun;
  private int leftoverFiles;
  private int reruns;
  private int rebuildsReported;
  private int spilled;
  private int multiPass;
  private int rangeMerged;

  IdxbuildModel(IdxbuildWorkload w, Map<String, Long> initialRoots) {
    this.w = w;
    roots.put(0L, initialRoots);
    this.itemTexts = w.itemTexts();
    this.bigTexts = w.bigTexts();
  }

  @Override
  public void observe(List<ChildLine> lines) {
    for (ChildLine l : lines) {
      if (l.is(ChildLine.BEGIN)) {
        begun = Math.max(begun, l.unit());
      } else if (l.is(ChildLine.OTHER)) {
        String[] w3 = l.text().split(" ", 3);
        switch (w3[0]) {
          case "ROOTS" -> {
            long n = Long.parseLong(w3[1]);
            Map<String, Long> r = RebuildJournal.parse(w3[2]);
            Map<String, Long> known = roots.get(n);
            if (known != null && !known.equals(r)) {
              throw new AssertionError(
                  "the child reports roots " + r + " for unit " + n + ", the parent saw " + known);
            }
            roots.put(n, r);
          }
          case "LEFTOVERS" -> leftoverFiles += Integer.parseInt(w3[1]);
          case "REPORT" -> report(l.text());
          default -> {}
        }
      }
    }
  }

  /** {@code REPORT n runs=R passes=P ranges=G}: what rebuild n's sort did. */
  private void report(String text) {
    rebuildsReported++;
    Map<String, Long> kv = new TreeMap<>();
    for (String part : text.split(" ")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        kv.put(part.substring(0, eq), Long.parseLong(part.substring(eq + 1)));
      }
    }
    spilled += kv.getOrDefault("runs", 0L) > 0 ? 1 : 0;
    multiPass += kv.getOrDefault("passes", 0L) > 0 ? 1 : 0;
    rangeMerged += kv.getOrDefault("ranges", 0L) > 1 ? 1 : 0;
  }

  @Override
  public long unitsIn(Database db) {
    Map<String, Long> cur = roots(db);
    long last = ((TreeMap<Long, Map<String, Long>>) roots).lastKey();
    Map<String, Long> before = roots.get(last);
    if (cur.equals(before)) {
      return last;
    }
    Set<String> rebuilt = w.plan(last + 1).indexes();
    if (begun == last + 1 && movedExactly(before, cur, rebuilt)) {
      roots.put(last + 1, cur);
      return last + 1;
    }
    throw new AssertionError(
        "after unit "
            + last
            + " the roots were "
            + before
            + "; the database has "
            + cur
            + (begun == last + 1
                ? ": neither the old trees nor a whole set of new ones for rebuild "
                    + (last + 1)
                    + " of "
                    + rebuilt
                : " and no rebuild had begun"));
  }

  @Override
  public long verify(Database db, long units) {
    Diffs diffs = new Diffs();
    long compared = 0;
    compared += compareTable(db, "item", itemTexts, diffs);
    compared += compareTable(db, "big", bigTexts, diffs);
    for (String ix : IdxbuildWorkload.ALL_INDEXES) {
      compared += compareIndex(db, ix, ix.startsWith("item") ? itemTexts : bigTexts, diffs);
    }
    lookups(db, units, diffs);
    diffs.throwIfAny("after rebuild " + units);
    return compared;
  }

  @Override
  public void afterKill(Path copy) {
    Path sort = copy.resolveSibling("rerun-sort");
    try (Database db = Database.open(copy)) {
      rebuildAll(db, sort, RebuildListener.NONE);
      DatabaseCheck.Report report = db.check();
      if (!report.clean()) {
        throw new AssertionError(
            "db.check() after the rerun finds: " + String.join("; ", report.problems()));
      }
      for (String ix : IdxbuildWorkload.ALL_INDEXES) {
        if (!db.index(ix).isActive()) {
          throw new AssertionError("index " + ix + " is not active after the rerun");
        }
      }
      assertEmpty(sort, "after the rerun on the recovered copy");
      reruns++;
    } finally {
      FileTrees.delete(sort);
    }
  }

  @Override
  public void finish(Path dir) {
    Path sort = IdxbuildCampaign.sortDir(dir);
    AtomicInteger deleted = new AtomicInteger();
    try (Database db = Database.open(dir)) {
      rebuildAll(
          db,
          sort,
          new RebuildListener() {
            @Override
            public void warning(String message) {
              deleted.addAndGet(IdxbuildCampaign.leftoverCount(message));
            }
          });
      DatabaseCheck.Report report = db.check();
      if (!report.clean()) {
        throw new AssertionError(
            "db.check() after the final rebuild finds: " + String.join("; ", report.problems()));
      }
    }
    assertEmpty(sort, "after the final rebuild of the campaign's database");
    leftoverFiles += deleted.get();
  }

  @Override
  public String summary() {
    return String.format(
        "rebuilds reported %d (spilled runs %d, intermediate merge passes %d, range-parallel merges %d), reruns"
            + " after a kill %d, stale sort files deleted by the next run %d",
        rebuildsReported, spilled, multiPass, rangeMerged, reruns, leftoverFiles);
  }

  private static void rebuildAll(Database db, Path sort, RebuildListener listener) {
    try {
      Files.createDirectories(sort);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    new IndexRebuild(
            db,
            RebuildOptions.defaults(SrtFile.ofDirectory(sort))
                .withThreads(2, 2, 2)
                .withMemory(1L << 20),
            "crash-rerun",
            listener)
        .run();
  }

  static void assertEmpty(Path dir, String when) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> left = files.toList();
      if (!left.isEmpty()) {
        throw new AssertionError("sort files left in " + dir + " " + when + ": " + left);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long compareTable(Database db, String table, List<String> expected, Diffs diffs) {
    List<String> got = new ArrayList<>();
    try (RowCursor c = db.table(table).scan()) {
      c.forEachRemaining(r -> got.add(text(r.values())));
    }
    got.sort(null);
    if (!got.equals(expected)) {
      diffs.add("table " + table + ": " + difference(got, expected));
    }
    return got.size();
  }

  /** The index scans to the table's rows, in strictly increasing key || rid order. */
  private static long compareIndex(Database db, String name, List<String> expected, Diffs diffs) {
    Index index = db.index(name);
    if (!index.isActive()) {
      diffs.add("index " + name + " is not active");
      return 0;
    }
    IndexInfo info = db.catalog().index(name);
    KeyEncoder enc = info.encoder();
    List<String> got = new ArrayList<>();
    byte[] prev = null;
    long n = 0;
    try (RowCursor c = index.scan()) {
      while (c.hasNext()) {
        Row r = c.next();
        got.add(text(r.values()));
        byte[] entry = entry(enc.encode(info.keyOf(r.values())), r.rid());
        if (prev != null && Arrays.compareUnsigned(prev, entry) >= 0) {
          diffs.add("index " + name + ": entry " + n + " does not sort after the one before it");
        }
        prev = entry;
        n++;
      }
    }
    got.sort(null);
    if (!got.equals(expected)) {
      diffs.add("index " + name + ": " + difference(got, expected));
    }
    return got.size();
  }

  private static byte[] entry(byte[] key, long rid) {
    return ByteBuffer.allocate(key.length + Long.BYTES).put(key).putLong(rid).array();
  }

  private void lookups(Database db, long units, Diffs diffs) {
    SplittableRandom r = new SplittableRandom(TxnWorkload.mix(units, 0x100C));
    for (int k = 0; k < 200; k++) {
      Object[] item = w.item(r.nextInt(IdxbuildWorkload.itemRows()));
      expectOne(db, "item_pk", new Object[] {item[0]}, item, diffs);
      if (item[4] != null) {
        expectOne(db, "item_code", new Object[] {item[4]}, item, diffs);
      }
      Object[] big = w.big(r.nextInt(IdxbuildWorkload.bigRows()));
      expectOne(db, "big_pk", new Object[] {big[0]}, big, diffs);
    }
  }

  private static void expectOne(Database db, String index, Object[] key, Object[] row, Diffs d) {
    List<Row> found = db.index(index).get(key);
    if (found.size() != 1 || !text(found.get(0).values()).equals(text(row))) {
      d.add(index + " lookup " + Arrays.toString(key) + " finds " + found + ", expected one row");
    }
  }

  private static String difference(List<String> got, List<String> expected) {
    int i = 0;
    while (i < got.size() && i < expected.size() && got.get(i).equals(expected.get(i))) {
      i++;
    }
    return got.size()
        + " rows, expected "
        + expected.size()
        + "; first difference at sorted row "
        + i
        + ": "
        + (i < got.size() ? got.get(i) : "(none)")
        + " vs "
        + (i < expected.size() ? expected.get(i) : "(none)");
  }

  /** The roots of every index of the campaign, by name. */
  static Map<String, Long> roots(Database db) {
    Map<String, Long> out = new TreeMap<>();
    for (String ix : IdxbuildWorkload.ALL_INDEXES) {
      IndexState s = Engine.of(db).meta().index(db.catalog().index(ix).id());
      out.put(ix, s == null ? -1 : s.root());
    }
    return out;
  }

  /** Whether exactly the indexes of {@code rebuilt} moved from {@code before} to {@code after}. */
  static boolean movedExactly(
      Map<String, Long> before, Map<String, Long> after, Set<String> rebuilt) {
    if (!before.keySet().equals(after.keySet())) {
      return false;
    }
    for (String ix : before.keySet()) {
      boolean moved = !before.get(ix).equals(after.get(ix));
      if (moved != rebuilt.contains(ix)) {
        return false;
      }
    }
    return true;
  }

  /** Values as text with their classes, so that a Long and an Integer 1 differ. */
  static String text(Object[] values) {
    StringBuilder sb = new StringBuilder("[");
    for (Object v : values) {
      if (sb.length() > 1) {
        sb.append(", ");
      }
      if (v == null) {
        sb.append("null");
      } else if (v instanceof byte[] b) {
        sb.append("byte[]:").append(HexFormat.of().formatHex(b));
      } else if (v instanceof BigDecimal d) {
        sb.append("BigDecimal:").append(d.toPlainString());
      } else {
        sb.append(v.getClass().getSimpleName()).append(':').append(v);
      }
    }
    return sb.append(']').toString();
  }
}
