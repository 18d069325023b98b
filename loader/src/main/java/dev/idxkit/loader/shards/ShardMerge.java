package dev.idxkit.loader.shards;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseCheck;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.spi.BuildResult;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.Keys;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageRelocation;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.TableState;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.core.spi.TreeEntries;
import dev.idxkit.core.spi.TreeSegment;
import dev.idxkit.idxbuild.sort.LoserTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Builds one database from the shards of a shard set, without re-sorting anything: {@code idxkit
 * merge-shards OUTPUT_DIR DB}. Needs no Spark: shards are ordinary idxkit databases and the
 * manifest is JSON.
 *
 * <p>Call order: {@link #merge} (it creates {@code db}, which must be new or empty, and returns
 * what it did). If it fails, the files it created are deleted again (the directory too, if it did
 * not exist), so the same merge can simply be run again.
 *
 * <p>Steps:
 *
 * <ol>
 *   <li><b>Heap</b>: shard after shard, in key order, the shard's pages of the table's area are
 *       given one contiguous run of the new area, so a shard page {@code p} becomes {@code p +
 *       offset(shard)}. Heap and overflow pages are copied as bytes and renumbered ({@link
 *       PageRelocation}: the header, overflow stubs and chain links move by the same offset); pages
 *       of the run that held nothing of the table become free pages. A record's RID moves by the
 *       shard's page offset, slot unchanged.
 *   <li><b>Primary key</b>: the shards' key ranges are disjoint and ordered, so their trees are
 *       stitched: each shard's entries (RIDs remapped) fill a segment of leaves ({@link
 *       TreeBuilder#forSegment}), then {@link TreeSegment#join} links the leaf chains and builds
 *       the upper levels once over all of them.
 *   <li><b>Secondary indexes</b>: each is a {@link LoserTree} merge of the shards' trees, read in
 *       order, straight into a bottom-up {@link TreeBuilder}. Entries are {@code key || rid}; the
 *       remapped RIDs keep each shard's order and put shard i's pages below shard i+1's, so the
 *       merged stream is in order with no sort.
 *   <li><b>Publish</b> in one meta write, then the full {@link DatabaseCheck}.
 * </ol>
 *
 * <p>Worked example: shard 0 uses data pages 1..40, shard 1 pages 1..25. The new data area gets
 * pages 1..40 for shard 0 (offset 0) and 41..65 for shard 1 (offset 40). A row at RID (7, 3) of
 * shard 1 is (47, 3) in the merged database; its entry {@code k || (7,3)} in a shard-1 index
 * becomes {@code k || (47,3)}, which sorts after every shard-0 entry of the same key {@code k}.
 *
 * <p>Cost: every page of the table is read once and written once; every index entry is read once
 * and written once; one writer thread. Memory: a page per tree level per index being built, one
 * leaf per shard cursor, the session's write buffers.
 */
public final class ShardMerge {
  private ShardMerge() {}

  /**
   * What a merge did.
   *
   * @param rows rows in the merged table
   * @param shards shards merged (empty ones included)
   * @param entries entries of each index of the table
   * @param heapPages heap and overflow pages copied
   * @param heapNanos wall time of the heap copy
   * @param indexNanos wall time of the primary-key stitch and the secondary merges
   * @param checkNanos wall time of the final check
   */
  public record Report(
      long rows,
      int shards,
      Map<String, Long> entries,
      long heapPages,
      long heapNanos,
      long indexNanos,
      long checkNanos) {}

  /** Merges the shard set in {@code shardsDir} into a new database at {@code dbDir}. */
  public static Report merge(Path shardsDir, Path dbDir) {
    ShardManifest manifest = ShardManifest.read(shardsDir);
    checkOrder(manifest, shardsDir);
    List<Database> shards = new ArrayList<>();
    try {
      for (ManifestShard s : manifest.shards()) {
        Path dir = shardsDir.resolve(s.name());
        if (!Files.isDirectory(dir)) {
          throw new InvalidInputException(
              shardsDir.resolve(ShardManifest.FILE_NAME)
                  + ": shard "
                  + s.name()
                  + " is listed but "
                  + dir
                  + " does not exist");
        }
        shards.add(Database.open(dir, Database.DatabaseOptions.defaults().readOnly()));
      }
      boolean existed = Files.exists(dbDir);
      Database out =
          Database.create(
              dbDir, Database.DatabaseOptions.defaults().withPageSize(manifest.pageSize()));
      boolean done = false;
      try (out) {
        out.execute(manifest.schema().ddl(), "ddl");
        Report r = new Merger(manifest, shards, out).run();
        done = true;
        return r;
      } finally {
        if (!done) {
          removeCreated(dbDir, existed);
        }
      }
    } finally {
      for (Database d : shards) {
        d.close();
      }
    }
  }

  /** Deletes what a failed merge wrote into {@code dir} (it was empty or did not exist). */
  private static void removeCreated(Path dir, boolean existed) {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        if (existed && p.equals(dir)) {
          continue;
        }
        Files.deleteIfExists(p);
      }
    } catch (java.io.IOException | RuntimeException e) {
      // Best effort: the merge's own failure is what the caller must see.
    }
  }

  private static void checkOrder(ShardManifest m, Path dir) {
    byte[] prev = null;
    String prevName = null;
    for (ManifestShard s : m.shards()) {
      if (s.isEmpty()) {
        continue;
      }
      if (prev != null && Keys.compare(prev, s.firstKey()) >= 0) {
        throw new InvalidInputException(
            dir.resolve(ShardManifest.FILE_NAME)
                + ": shards "
                + prevName
                + " and "
                + s.name()
                + " overlap or are out of key order");
      }
      prev = s.lastKey();
      prevName = s.name();
    }
  }

  /** One merge: the output's bulk session and the shards' page offsets. */
  private static final class Merger {
    private final ShardManifest manifest;
    private final List<Database> shards;
    private final Database out;
    private final TableInfo table;
    private final long[] offsets;

    Merger(ShardManifest manifest, List<Database> shards, Database out) {
      this.manifest = manifest;
      this.shards = shards;
      this.out = out;
      this.table = out.catalog().table(manifest.schema().table());
      this.offsets = new long[shards.size()];
      for (int i = 0; i < shards.size(); i++) {
        Database s = shards.get(i);
        if (Engine.of(s).pageSize() != manifest.pageSize()) {
          throw new InvalidInputException(
              s.dir()
                  + ": page size "
                  + Engine.of(s).pageSize()
                  + " (expected: "
                  + manifest.pageSize()
                  + " as the manifest says)");
        }
        if (!s.schema().equals(out.schema())) {
          throw new InvalidInputException(
              s.dir() + ": the shard's schema differs from the manifest's DDL");
        }
      }
    }

    Report run() {
      long t0 = System.nanoTime();
      Map<String, Long> entries = new LinkedHashMap<>();
      long heapPages;
      long t1;
      try (BulkWrite bulk = Engine.of(out).beginBulk()) {
        heapPages = copyHeaps(bulk);
        t1 = System.nanoTime();
        for (IndexInfo ix : table.indexes()) {
          freeOldTree(bulk, ix);
          BuildResult r =
              ix.def().name().equals(manifest.schema().keyIndex())
                  ? stitch(bulk, ix)
                  : mergeIndex(bulk, ix);
          bulk.meta().index(ix.id(), new IndexState(r.root(), IndexStatus.ACTIVE));
          entries.put(ix.name(), r.entries());
        }
        bulk.publish();
      } finally {
        out.bulkPublished();
      }
      long t2 = System.nanoTime();
      DatabaseCheck.Report check = out.check();
      if (!check.clean()) {
        throw new IdxkitException(
            out.dir()
                + ": the merged database fails its check: "
                + String.join(
                    "; ", check.problems().subList(0, Math.min(5, check.problems().size()))));
      }
      long rows = check.tableRows().getOrDefault(table.name(), 0L);
      return new Report(
          rows, shards.size(), entries, heapPages, t1 - t0, t2 - t1, System.nanoTime() - t2);
    }

    /** Step 1: every shard's heap and overflow pages, renumbered by the shard's offset. */
    private long copyHeaps(BulkWrite bulk) {
      int area = table.area();
      int pageSize = manifest.pageSize();
      Page scratch = new Page(BytesStore.wrap(new byte[pageSize]), 0, pageSize);
      PageRuns pages = PageRuns.EMPTY;
      long rows = 0;
      long copied = 0;
      try (BulkWrite.Stream stream = bulk.stream(area)) {
        for (int i = 0; i < shards.size(); i++) {
          Database shard = shards.get(i);
          MetaState meta = Engine.of(shard).meta();
          TableState ts = meta.table(table.id());
          long hwm = meta.hwm(area);
          if (ts == null || ts.rows() == 0 || hwm <= 1) {
            continue;
          }
          // Page 0 is the area header; the shard's pages 1..hwm-1 get one run of the new area.
          BulkWrite.PageRun run = bulk.allocateRun(area, Math.toIntExact(hwm - 1));
          if (run.length() != hwm - 1) {
            throw new IllegalStateException(
                "area " + area + ": got a run of " + run.length() + " pages, needed " + (hwm - 1));
          }
          long offset = run.start() - 1;
          offsets[i] = offset;
          PageAccess src = Engine.of(shard).committedPages(area);
          BitSet used = usedPages(src, ts.pages(), hwm);
          for (long p = 1; p < hwm; p++) {
            if (!used.get((int) p)) {
              bulk.returnRun(area, p + offset, 1);
              continue;
            }
            scratch.copyFrom(src.read(p));
            PageRelocation.relocate(scratch, offset);
            stream.write(p + offset, scratch);
            copied++;
          }
          for (int r = 0; r < ts.pages().runCount(); r++) {
            pages = pages.addRun(ts.pages().runStart(r) + offset, ts.pages().runLength(r));
          }
          rows += ts.rows();
        }
      }
      bulk.meta().table(table.id(), new TableState(pages, rows));
      return copied;
    }

    /** The table's heap pages and the overflow pages their stubs lead to. */
    private BitSet usedPages(PageAccess src, PageRuns heap, long hwm) {
      BitSet used = new BitSet(Math.toIntExact(hwm));
      for (int r = 0; r < heap.runCount(); r++) {
        for (long p = heap.runStart(r), end = p + heap.runLength(r); p < end; p++) {
          used.set((int) p);
          Page page = src.read(p);
          for (int s = 0, n = HeapPage.slotCount(page); s < n; s++) {
            if (HeapPage.isLive(page, s) && HeapPage.isOverflow(page, s)) {
              for (long o : PageRelocation.overflowChain(src, page, s)) {
                used.set((int) o);
              }
            }
          }
        }
      }
      return used;
    }

    /** Step 2: the primary key, one leaf segment per shard, joined. */
    private BuildResult stitch(BulkWrite bulk, IndexInfo ix) {
      int pageSize = manifest.pageSize();
      try (BulkWrite.Stream sink = bulk.stream(ix.area())) {
        List<TreeSegment> segments = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
          TreeBuilder seg = TreeBuilder.forSegment(sink, pageSize, ix.area(), 100, ix.name());
          try (ShardEntries in = entries(i, ix)) {
            while (in.next()) {
              seg.add(in.array(), in.offset(), in.length());
            }
          }
          segments.add(seg.finishSegment());
        }
        return TreeSegment.join(sink, pageSize, ix.area(), 100, ix.name(), segments);
      }
    }

    /** Step 3: a secondary index, a loser-tree merge of the shards' trees. */
    private BuildResult mergeIndex(BulkWrite bulk, IndexInfo ix) {
      List<ShardEntries> sources = new ArrayList<>();
      for (int i = 0; i < shards.size(); i++) {
        sources.add(entries(i, ix));
      }
      try (BulkWrite.Stream sink = bulk.stream(ix.area());
          LoserTree merge = new LoserTree(sources)) {
        TreeBuilder b = new TreeBuilder(sink, manifest.pageSize(), ix.area(), 100, ix.name());
        while (merge.next()) {
          b.add(merge.array(), merge.offset(), merge.length());
        }
        return b.finish();
      }
    }

    private ShardEntries entries(int shard, IndexInfo ix) {
      Database s = shards.get(shard);
      IndexState st = Engine.of(s).meta().index(ix.id());
      if (st == null || !st.active()) {
        throw new InvalidInputException(
            s.dir() + ": index " + ix.name() + " is not active in the shard (was it finished?)");
      }
      long buffered = Engine.of(s).bufferedChanges();
      if (buffered > 0) {
        // Read-only, the shard's trees lack what its change buffers hold (left by transactions
        // and a crash); a read-write open and close merges them.
        throw new InvalidInputException(
            s.dir()
                + ": "
                + buffered
                + " index changes are not merged into the shard's trees yet (transactions"
                + " before a crash): rebuild its indexes (idxkit idxbuild) or open and close it"
                + " read-write once, then merge again");
      }
      TreeEntries tree =
          TreeEntries.open(Engine.of(s).committedPages(ix.area()), st.root(), ix.name());
      return new ShardEntries(tree, offsets[shard], manifest.pageSize() / 4 + 16);
    }

    /** The DDL created an empty tree for every index; the merged trees replace it. */
    private static void freeOldTree(BulkWrite bulk, IndexInfo ix) {
      IndexState old = bulk.meta().index(ix.id());
      if (old != null && old.root() != 0) {
        bulk.forEachPublishedTreePage(
            ix.area(), old.root(), ix.name(), p -> bulk.freePage(ix.area(), p));
      }
    }
  }

  /** Rebases a RID by a shard's page offset: same slot, page moved. */
  static long remap(long rid, long offset) {
    return Rid.of(Rid.page(rid) + offset, Rid.slot(rid));
  }
}
