package dev.idxkit.idxbuild;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.btree.BuildResult;
import dev.idxkit.core.btree.TreeBuilder;
import dev.idxkit.core.record.KeyExtractor;
import dev.idxkit.core.txn.BulkWrite;
import dev.idxkit.idxbuild.sort.EntryBuffer;
import dev.idxkit.idxbuild.sort.EntrySource;
import dev.idxkit.idxbuild.sort.LoserTree;
import dev.idxkit.idxbuild.sort.MultiPassMerge;
import dev.idxkit.idxbuild.sort.Run;
import dev.idxkit.idxbuild.sort.RunReader;
import dev.idxkit.idxbuild.sort.RunWriter;
import dev.idxkit.idxbuild.temp.TempSpace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One sort group at run time: the runs its scan buffers spilled, the buffers still in memory, and
 * phases 2 and 3 for its indexes.
 *
 * <p>Merge: when the runs outnumber the fan-in that is left beside the in-memory buffers,
 * intermediate passes merge them {@code -TM} at a time into fewer runs. The final pass is a loser
 * tree over the remaining runs and the in-memory buffers, streamed straight into one bottom-up
 * {@link TreeBuilder} per index (entries arrive grouped by index id, in key order); the merged run
 * is never written. A unique index is checked on the way: two adjacent entries with the same key
 * part (and no NULL in it) stop the rebuild with both rows named.
 */
final class SortGroup {
  private final RebuildPlan.Group plan;
  private final int position;
  private final Catalog catalog;
  private final TempSpace temp;
  private final RebuildOptions options;
  private final Executor prefetch;
  private final Map<Integer, KeyExtractor> extractors = new HashMap<>();
  private final List<Run> runs = new ArrayList<>();
  private final List<EntryBuffer> inMemory = new ArrayList<>();
  final AtomicLong spilledEntries = new AtomicLong();
  final AtomicLong runsWritten = new AtomicLong();
  final AtomicLong spilledBytes = new AtomicLong();
  int mergePasses;
  long mergeBytes;
  long finalRuns;

  SortGroup(
      RebuildPlan.Group plan,
      int position,
      Catalog catalog,
      TempSpace temp,
      RebuildOptions options,
      Executor prefetch) {
    this.plan = plan;
    this.prefetch = prefetch;
    this.position = position;
    this.catalog = catalog;
    this.temp = temp;
    this.options = options;
    for (IndexInfo ix : plan.indexes()) {
      extractors.put(ix.id(), ix.extractor(catalog.table(ix.def().tableId()).layout()));
    }
  }

  int number() {
    return plan.number();
  }

  int position() {
    return position;
  }

  List<IndexInfo> indexes() {
    return plan.indexes();
  }

  RebuildPlan.Group plan() {
    return plan;
  }

  KeyExtractor extractor(IndexInfo ix) {
    return extractors.get(ix.id());
  }

  EntryBuffer newBuffer() {
    return new EntryBuffer(plan.bufferPerThread());
  }

  private int blockBytes() {
    return options.sortBlockKb() * 1024;
  }

  /** -TMB is the read-ahead per run in KB; the readers count it in blocks. */
  private int prefetchBlocks() {
    return Math.max(1, options.mergeBlockKb() / options.sortBlockKb());
  }

  synchronized int runCount() {
    return runs.size();
  }

  /** Sorts a full buffer, writes it as a run, and empties it for reuse. */
  void spill(EntryBuffer b) {
    b.sort();
    Run r;
    try (RunWriter w = new RunWriter(temp, plan.number(), blockBytes());
        EntrySource s = b.source()) {
      w.addAll(s);
      r = w.finish();
    }
    spilledEntries.addAndGet(r.entries());
    runsWritten.incrementAndGet();
    spilledBytes.addAndGet(r.entryBytes());
    synchronized (this) {
      runs.add(r);
    }
    b.clear();
  }

  synchronized void keepInMemory(EntryBuffer b) {
    inMemory.add(b);
  }

  /** What building one index produced. */
  record Built(IndexInfo index, BuildResult result) {}

  /**
   * Phases 2 and 3 for this group: intermediate merge passes if needed, then the final merge into
   * the trees. {@code built} counts entries as they reach the builders.
   */
  List<Built> build(BulkWrite bulk, Cancel cancel, AtomicLong built) {
    List<Run> toMerge;
    List<EntryBuffer> memory;
    synchronized (this) {
      toMerge = new ArrayList<>(runs);
      memory = new ArrayList<>(inMemory);
    }
    if (toMerge.size() > options.mergeFanIn()) {
      cancel.check();
      MultiPassMerge.Result r =
          new MultiPassMerge(
                  temp,
                  plan.number(),
                  new MultiPassMerge.Settings(options.mergeFanIn(), blockBytes(), prefetchBlocks()),
                  prefetch)
              .reduce(toMerge);
      toMerge = r.runs();
      mergePasses = r.passes();
      mergeBytes = r.bytesWritten();
      runsWritten.addAndGet(r.merges());
    }
    finalRuns = toMerge.size();
    List<EntrySource> sources = new ArrayList<>();
    Map<Integer, IndexBuild> builders = new HashMap<>();
    Map<Integer, BulkWrite.Stream> streams = new HashMap<>();
    try {
      for (Run r : toMerge) {
        sources.add(RunReader.open(r, prefetch, prefetchBlocks()));
      }
      for (EntryBuffer b : memory) {
        sources.add(b.source());
      }
      try (LoserTree merged = new LoserTree(sources)) {
        IndexBuild current = null;
        long n = 0;
        while (merged.next()) {
          byte[] a = merged.array();
          int off = merged.offset();
          int len = merged.length();
          int id = ((a[off] & 0xFF) << 8) | (a[off + 1] & 0xFF);
          if (current == null || current.index.id() != id) {
            IndexInfo ix = catalog.index(id);
            current = new IndexBuild(ix, streams.computeIfAbsent(ix.area(), bulk::stream));
            builders.put(id, current);
          }
          current.add(a, off + 2, len - 2);
          if ((++n & 0xFFF) == 0) {
            built.addAndGet(0x1000);
            cancel.check();
          }
        }
        built.addAndGet(n & 0xFFF);
      }
      List<Built> out = new ArrayList<>();
      for (IndexInfo ix : plan.indexes()) {
        IndexBuild b = builders.get(ix.id());
        if (b == null) {
          b = new IndexBuild(ix, streams.computeIfAbsent(ix.area(), bulk::stream));
        }
        out.add(new Built(ix, b.builder.finish()));
      }
      return out;
    } finally {
      for (EntrySource s : sources) {
        s.close();
      }
      for (BulkWrite.Stream s : streams.values()) {
        s.close();
      }
      for (Run r : toMerge) {
        r.delete();
      }
      synchronized (this) {
        inMemory.clear();
        runs.clear();
      }
    }
  }

  /** One index's builder and its unique-key check on adjacent entries. */
  private final class IndexBuild {
    final IndexInfo index;
    final TreeBuilder builder;
    private byte[] prev = new byte[64];
    private int prevLen = -1;

    IndexBuild(IndexInfo index, BulkWrite.Stream stream) {
      this.index = index;
      this.builder =
          new TreeBuilder(
              stream, stream.pageSize(), index.area(), options.leafFill(), index.name());
    }

    void add(byte[] a, int off, int len) {
      if (index.unique()) {
        int keyLen = len - Rid.BYTES;
        if (prevLen == keyLen && Arrays.equals(prev, 0, keyLen, a, off, off + keyLen)) {
          duplicate(a, off, len);
        }
        if (prev.length < len) {
          prev = new byte[Math.max(len, prev.length * 2)];
        }
        System.arraycopy(a, off, prev, 0, len);
        prevLen = keyLen;
        prevRid = Rid.read(a, off + keyLen);
      }
      builder.add(a, off, len);
    }

    private long prevRid;

    private void duplicate(byte[] a, int off, int len) {
      int keyLen = len - Rid.BYTES;
      Object[] key = index.encoder().decode(a, off, keyLen);
      for (Object v : key) {
        if (v == null) {
          return; // NULLs are distinct: a unique index may hold several
        }
      }
      long rid = Rid.read(a, off + keyLen);
      throw new DuplicateKeyException(
          index.name(),
          describe(key) + " in rows " + Rid.toString(prevRid) + " and " + Rid.toString(rid));
    }

    private String describe(Object[] key) {
      StringBuilder b = new StringBuilder("(");
      for (int i = 0; i < key.length; i++) {
        String col = index.table().columns().get(index.columns()[i]).name();
        b.append(i == 0 ? "" : ", ").append(col).append('=');
        b.append(key[i] instanceof String ? "'" + key[i] + "'" : key[i]);
      }
      return b.append(')').toString();
    }
  }
}
