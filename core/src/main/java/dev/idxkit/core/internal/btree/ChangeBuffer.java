package dev.idxkit.core.internal.btree;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Changes to one index's entries held in memory, sorted, instead of in its tree (issue 18's change
 * buffer): an insert of an entry the tree does not hold, or a delete of one it does. A random
 * insert into a big tree costs a cold descent and an 8 KiB page copy per key; buffered, it costs a
 * few comparisons, and {@link #mergeInto} later applies thousands of them in key order, touching
 * each leaf once for all the keys that land in it.
 *
 * <p>Layout: an in-memory log-structured merge. Changes applied one at a time ({@link #apply}: a
 * transaction's own, or recovery's) go to a small sorted map; a transaction's whole buffer joins a
 * committed one as one {@link SortedRun} ({@link #addAll}); runs are kept at sizes that at least
 * double from newest to oldest, two neighbours merged whenever the newer reaches half the older, so
 * a buffer of n changes has about log2(n / 1,000) runs and each change is copied that many times,
 * front to back, never inserted into a big tree map.
 *
 * <p>Composition: the newest change of an entry is the one that counts for readers ({@link
 * BufferedCursor}, {@link #change}). When two changes of an entry meet (in the map, or in a merge
 * of runs) an insert and a delete cancel: a delete of an entry a buffered insert added, or an
 * insert of one a buffered delete hid while the tree holds it, leaves nothing to do in the tree. So
 * a buffer's composed changes are exactly what {@link #mergeInto} must do to the tree.
 *
 * <p>Entries are compared as unsigned bytes, as the tree compares them. Not thread-safe: the
 * committed buffers are changed by the writer under the store's write lock and read under its read
 * lock.
 */
public final class ChangeBuffer {
  /** Estimated heap bytes per change in the map besides the entry's own: a map node, an array. */
  public static final int OVERHEAD = 64;

  /** Changes the map holds before they become a run. */
  static final int SEAL = 4096;

  private final NavigableMap<byte[], Boolean> open = new TreeMap<>(Arrays::compareUnsigned);
  private long openBytes;
  // Oldest first; every change in them is older than every change in the map.
  private final List<SortedRun> runs = new ArrayList<>();

  /**
   * Applies an insert ({@code insert}) or a delete of {@code entry} (kept, not copied).
   *
   * @throws IllegalStateException when the same change of the entry is the newest one in the map:
   *     an entry inserted or deleted twice, which callers rule out (an insert checks the entry is
   *     absent, a delete that it is present)
   */
  public void apply(byte[] entry, boolean insert) {
    Boolean prev = open.get(entry);
    if (prev == null) {
      open.put(entry, insert);
      openBytes += OVERHEAD + entry.length;
    } else if (prev != insert) {
      open.remove(entry);
      openBytes -= OVERHEAD + entry.length;
    } else {
      throw new IllegalStateException(
          "entry "
              + (insert ? "inserted" : "deleted")
              + " twice: "
              + Keys.hex(entry, 0, entry.length));
    }
    if (open.size() >= SEAL) {
      seal();
    }
  }

  /** Adds every change of {@code newer} (a transaction's buffer) as changes newer than these. */
  public void addAll(ChangeBuffer newer) {
    seal();
    SortedRun run = newer.composed();
    if (run.live() > 0) {
      push(run);
    }
  }

  /** The newest buffered change of {@code entry}: TRUE an insert, FALSE a delete, null none. */
  public Boolean change(byte[] entry) {
    Boolean c = open.get(entry);
    if (c != null) {
      return c;
    }
    for (int r = runs.size() - 1; r >= 0; r--) {
      SortedRun run = runs.get(r);
      int i = run.find(entry);
      if (i >= 0) {
        return run.insert(i);
      }
    }
    return null;
  }

  public boolean isEmpty() {
    return size() == 0;
  }

  /** Changes held (an entry changed in two runs not yet merged counts twice). */
  public int size() {
    int n = open.size();
    for (SortedRun r : runs) {
      n += r.live();
    }
    return n;
  }

  /** Estimated heap bytes held. */
  public long bytes() {
    long b = openBytes;
    for (SortedRun r : runs) {
      b += r.bytes();
    }
    return b;
  }

  /** The composed changes in key order (a copy). */
  public List<Map.Entry<byte[], Boolean>> changes() {
    List<Map.Entry<byte[], Boolean>> out = new ArrayList<>();
    forEachChange(
        (a, off, len, insert) ->
            out.add(
                new AbstractMap.SimpleImmutableEntry<>(
                    Arrays.copyOfRange(a, off, off + len), insert)));
    return out;
  }

  /**
   * Receives composed changes; the entry's bytes are {@code a[off, off + len)}, for the call only.
   */
  public interface ChangeSink {
    void change(byte[] a, int off, int len, boolean insert);
  }

  /**
   * The composed changes in key order, without a copy of each: a snapshot of every buffer at each
   * checkpoint beside the commits writes them all into the log.
   */
  public void forEachChange(ChangeSink sink) {
    Composed c = new Composed(all());
    while (c.next()) {
      sink.change(c.array(), c.offset(), c.length(), c.insert);
    }
  }

  /**
   * Applies up to {@code max} composed changes, the lowest entries first, to {@code tree}; returns
   * the last entry applied, or null when there is none. The buffer keeps them: the caller drops the
   * applied changes with {@link #dropThrough} when the tree's pages become visible, so that readers
   * never see an entry twice or not at all.
   *
   * @throws IllegalStateException when a buffered delete finds no entry in the tree, or an insert
   *     finds it already there: the buffer and the tree disagree
   */
  public byte[] mergeInto(BTree tree, int max) {
    Composed c = new Composed(all());
    int n = tree.apply(c, max);
    return n == 0 ? null : c.lastEntry();
  }

  /** Drops every change of an entry up to {@code last}, inclusive. */
  public void dropThrough(byte[] last) {
    NavigableMap<byte[], Boolean> head = open.headMap(last, true);
    for (byte[] e : head.keySet()) {
      openBytes -= OVERHEAD + e.length;
    }
    head.clear();
    for (SortedRun r : runs) {
      r.dropThrough(last);
    }
    runs.removeIf(r -> r.live() == 0);
  }

  public void clear() {
    open.clear();
    openBytes = 0;
    runs.clear();
  }

  /**
   * Composes the map and every run into one run, as a merge of the whole buffer starts: the merge
   * and each checkpoint's snapshot beside it then walk one run instead of comparing the heads of
   * all of them for every change (400 transactions' changes are three runs, up to six on the way),
   * and cancelled pairs are gone. The composed changes stay the same.
   */
  public void compact() {
    SortedRun one = composed();
    clear();
    if (one.live() > 0) {
      runs.add(one);
    }
  }

  /**
   * The buffer's changes as sorted sources, oldest first, for {@link BufferedCursor}: each
   * positioned at {@code key} (null: at the walk's first entry) in the walk's direction.
   */
  void sources(List<Source> out) {
    for (SortedRun r : runs) {
      out.add(new RunSource(r));
    }
    if (!open.isEmpty()) {
      out.add(new MapSource(open));
    }
  }

  /** Makes the map a run. */
  private void seal() {
    if (!open.isEmpty()) {
      SortedRun r = openAsRun();
      open.clear();
      openBytes = 0;
      push(r);
    }
  }

  private SortedRun openAsRun() {
    SortedRun.Builder b =
        new SortedRun.Builder(open.size(), (int) (openBytes - OVERHEAD * (long) open.size()));
    for (Map.Entry<byte[], Boolean> e : open.entrySet()) {
      b.add(e.getKey(), 0, e.getKey().length, e.getValue());
    }
    return b.build();
  }

  /** The runs, and the map as a run of its own (the newest), without changing the buffer. */
  private List<SortedRun> all() {
    if (open.isEmpty()) {
      return runs;
    }
    List<SortedRun> all = new ArrayList<>(runs);
    all.add(openAsRun());
    return all;
  }

  private void push(SortedRun run) {
    runs.add(run);
    int n = runs.size();
    while (n >= 2 && runs.get(n - 1).live() * 2 >= runs.get(n - 2).live()) {
      SortedRun merged = SortedRun.merge(runs.get(n - 2), runs.get(n - 1));
      runs.remove(n - 1);
      runs.set(n - 2, merged);
      n--;
      if (merged.live() == 0) {
        runs.remove(n - 1);
        n--;
      }
    }
  }

  /** This buffer's composed changes as one run. */
  private SortedRun composed() {
    List<SortedRun> all = all();
    if (all.size() == 1) {
      return all.get(0);
    }
    SortedRun.Builder b = new SortedRun.Builder(size(), (int) Math.min(Integer.MAX_VALUE, bytes()));
    Composed c = new Composed(all);
    while (c.next()) {
      SortedRun r = all.get(c.run);
      b.add(r.data, r.from(c.index), r.to(c.index) - r.from(c.index), c.insert);
    }
    return b.build();
  }

  /**
   * The runs merged in key order, equal entries composed (oldest to newest: an insert and a delete
   * cancel); after {@link #next}, {@link #run} and {@link #index} locate the entry.
   */
  private static final class Composed implements LeafMerge.Changes {
    private final List<SortedRun> runs;
    private final int[] pos;
    int run = -1;
    int index;
    boolean insert;

    Composed(List<SortedRun> runs) {
      this.runs = runs;
      this.pos = new int[runs.size()];
      for (int r = 0; r < pos.length; r++) {
        pos[r] = runs.get(r).start();
      }
    }

    @Override
    public boolean next() {
      while (true) {
        int min = -1;
        for (int r = 0; r < pos.length; r++) {
          if (pos[r] < runs.get(r).count && (min < 0 || compare(r, min) < 0)) {
            min = r;
          }
        }
        if (min < 0) {
          return false;
        }
        Boolean state = null;
        int at = -1;
        int atRun = -1;
        for (int r = min; r < pos.length; r++) {
          if (pos[r] < runs.get(r).count && (r == min || compare(r, min) == 0)) {
            boolean ins = runs.get(r).insert(pos[r]);
            if (state == null) {
              state = ins;
            } else if (state != ins) {
              state = null;
            } else {
              SortedRun x = runs.get(r);
              throw new IllegalStateException(
                  "entry "
                      + (ins ? "inserted" : "deleted")
                      + " twice: "
                      + Keys.hex(x.data, x.from(pos[r]), x.to(pos[r]) - x.from(pos[r])));
            }
            at = pos[r];
            atRun = r;
          }
        }
        // Advance every run that held the entry (from min on: runs before it hold greater ones).
        for (int r = pos.length - 1; r >= min; r--) {
          if (r != atRun && pos[r] < runs.get(r).count && compareAt(r, atRun, at) == 0) {
            pos[r]++;
          }
        }
        pos[atRun]++;
        if (state != null) {
          run = atRun;
          index = at;
          insert = state;
          return true;
        }
      }
    }

    byte[] entry() {
      return runs.get(run).entry(index);
    }

    @Override
    public byte[] array() {
      return runs.get(run).data;
    }

    @Override
    public int offset() {
      return runs.get(run).from(index);
    }

    @Override
    public int length() {
      SortedRun r = runs.get(run);
      return r.to(index) - r.from(index);
    }

    @Override
    public boolean insert() {
      return insert;
    }

    byte[] lastEntry() {
      return entry();
    }

    private int compare(int a, int b) {
      return compareAt(a, b, pos[b]);
    }

    private int compareAt(int a, int b, int bIndex) {
      SortedRun x = runs.get(a);
      SortedRun y = runs.get(b);
      int i = pos[a];
      return Arrays.compareUnsigned(
          x.data, x.from(i), x.to(i), y.data, y.from(bIndex), y.to(bIndex));
    }
  }

  /** A sorted stream of changes for {@link BufferedCursor}. */
  interface Source {
    /** Positions at the first change {@code >= key} (reverse: the last {@code < key}). */
    void seek(byte[] key, boolean reverse);

    boolean valid();

    byte[] key();

    boolean insert();

    void step();
  }

  private static final class RunSource implements Source {
    private final SortedRun run;
    private boolean reverse;
    private int i;
    private byte[] key;

    RunSource(SortedRun run) {
      this.run = run;
    }

    @Override
    public void seek(byte[] from, boolean reverse) {
      this.reverse = reverse;
      if (from == null) {
        i = reverse ? run.count - 1 : run.start();
      } else {
        i = run.lowerBound(from, false) - (reverse ? 1 : 0);
      }
      key = null;
    }

    @Override
    public boolean valid() {
      return i >= run.start() && i < run.count;
    }

    @Override
    public byte[] key() {
      if (key == null) {
        key = run.entry(i);
      }
      return key;
    }

    @Override
    public boolean insert() {
      return run.insert(i);
    }

    @Override
    public void step() {
      i += reverse ? -1 : 1;
      key = null;
    }
  }

  private static final class MapSource implements Source {
    private final NavigableMap<byte[], Boolean> map;
    private Iterator<Map.Entry<byte[], Boolean>> it;
    private Map.Entry<byte[], Boolean> head;

    MapSource(NavigableMap<byte[], Boolean> map) {
      this.map = map;
    }

    @Override
    public void seek(byte[] from, boolean reverse) {
      NavigableMap<byte[], Boolean> m;
      if (from == null) {
        m = reverse ? map.descendingMap() : map;
      } else {
        m = reverse ? map.headMap(from, false).descendingMap() : map.tailMap(from, true);
      }
      it = m.entrySet().iterator();
      step();
    }

    @Override
    public boolean valid() {
      return head != null;
    }

    @Override
    public byte[] key() {
      return head.getKey();
    }

    @Override
    public boolean insert() {
      return head.getValue();
    }

    @Override
    public void step() {
      head = it.hasNext() ? it.next() : null;
    }
  }
}
