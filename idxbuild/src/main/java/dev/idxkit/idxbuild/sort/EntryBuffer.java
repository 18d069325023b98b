package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.spi.Keys;
import java.util.Arrays;

/**
 * The in-memory sort buffer of one sort group: variable-length entries appended until a fixed byte
 * budget is reached, then sorted in place and streamed out (to a {@link RunWriter}, or straight
 * into the final merge when the whole group fits).
 *
 * <p>Call order: {@link #add} until it returns false (full); {@link #sort()}; {@link #compact()} if
 * the buffer is kept for the final merge; {@link #source()} (or {@link #source(byte[], byte[])} for
 * a key range) to read the entries in order; {@link #clear()} to reuse the memory for the next
 * batch. Not thread-safe: one filler at a time.
 *
 * <p>Layout: one byte array, the arena, filled from both ends until they meet:
 *
 * <pre>
 *  0                        dataLen              start = length - 16 n              length
 *  +------------------------+--------------------+----------+----------+-----+----------+
 *  | entry bytes, appended  |        free        | prefix 0 | ref 0    | ... | ref n-1  |
 *  +------------------------+--------------------+----------+----------+-----+----------+
 *                                                 \_ 8 bytes  \_ 8 bytes: offset << 32 | length
 * </pre>
 *
 * Each entry has a 16-byte pair at the top: its 8-byte normalized prefix ({@link Keys#prefix8},
 * computed by {@code add} while the bytes are in cache) and where its bytes are. The sort ({@link
 * PrefixSort}: MSD radix on the prefix, then full comparison of equal-prefix runs) permutes those
 * pairs only; entry bytes do not move (only {@link #compact()} moves them, into sorted order). When
 * every entry has the same length and the entries came in non-decreasing RID order (their last 8
 * bytes), as a scan buffer's do, the entries are packed into one long each and those are sorted
 * ({@link PackedEntries}: the sorted longs are then the buffer, 8 bytes an entry, read back by
 * unpacking), or, when the varying bytes do not fit a long, {@link ArrivalOrderSort} sorts the
 * pairs on the key part alone with a stable LSD radix; {@code add} tracks both conditions as
 * entries come. Pairs are native-order longs read through a {@code VarHandle}; a new pair goes
 * below the others, so before sorting the pairs are in reverse order of arrival.
 *
 * <p>Memory: {@link #bytesUsed()} = entry bytes + {@value #INDEX_BYTES_PER_ENTRY} bytes per entry,
 * and {@code add} refuses an entry that would take it past the capacity, so the buffer fills to its
 * capacity exactly whatever the mix of entry lengths. The arena starts at the bytes the caller
 * expects (64 KiB when it says nothing) and doubles, never past the capacity (while it grows, the
 * old arena lives until the copy is done); a buffer expected to hold little never allocates its
 * full capacity. Sorting allocates 6 KB of counters.
 */
public final class EntryBuffer {
  /** Index bytes per entry: the prefix and the packed offset and length. */
  public static final int INDEX_BYTES_PER_ENTRY = 16;

  /** Arrays are limited to int indexes; stay under the VM's largest array. */
  public static final long MAX_CAPACITY = Integer.MAX_VALUE - 8;

  private static final int MIN_ARENA = 64 * 1024;
  private static final byte[] NO_BYTES = {};

  private final long capacity;
  // The arena's size when the first entry comes: the bytes the caller expects (at least MIN_ARENA),
  // so that a buffer expected to fill starts full-size instead of doubling its way there.
  private final long firstArena;
  private byte[] arena = NO_BYTES;
  private int dataLen;
  private int n;
  // In order as sort() or packing left them; an add clears it (isSorted: n <= 1 is in order too).
  private boolean sorted = true;
  private boolean prefixesLoaded = true;
  private int growths;
  // While every entry has the same length and came with a RID (last 8 bytes) no lower than the one
  // before (arrivals), and nothing has reordered the pairs (arrivalOrder), ArrivalOrderSort can
  // sort on the key part alone.
  private final Arrivals arrivals = new Arrivals();
  private boolean arrivalOrder = true;
  private boolean sortedByArrival;
  // While every entry qualifies for the packed sort, add writes no pairs (prefix and reference);
  // whatever needs them first writes them all (writePendingPairs).
  private boolean pairsPending;
  // The bytes the entries being written in place may still take (reserve, reserveRun), and how
  // many of those entries are not committed yet.
  private int reserved;
  private int reservedEntries;
  // After compact() of entries that all have one length: that length, and the arena holds the
  // entries alone, entry i at i * stride (no pairs). 0: the pairs are in use.
  private int stride;
  // The entries packed: these longs, in order (after packInArrivalOrder, in arrival order); the
  // arena's entries are dead, and after compact() the arena is gone. Null otherwise.
  private PackedEntries packed;

  public EntryBuffer(long capacityBytes) {
    this(capacityBytes, MIN_ARENA);
  }

  /**
   * A buffer whose arena starts at {@code expectedBytes} (at least 64 KiB, at most the capacity)
   * when its first entry comes, and doubles from there if more come. A scan worker's buffer of a
   * big group fills: started at its capacity it is allocated once instead of nine times (64 KiB,
   * then eight doublings to 16 MiB, each a new array and a copy of what the last held).
   */
  public EntryBuffer(long capacityBytes, long expectedBytes) {
    if (capacityBytes < 1024 || capacityBytes > MAX_CAPACITY) {
      throw new IllegalArgumentException(
          "capacityBytes : " + capacityBytes + " (expected: 1024.." + MAX_CAPACITY + ")");
    }
    this.capacity = capacityBytes;
    this.firstArena = Math.min(capacityBytes, Math.max(MIN_ARENA, expectedBytes));
  }

  /**
   * Copies {@code b[off, off+len)} in; false when it would take the buffer past its capacity, and
   * then nothing was added. An entry larger than the whole capacity is never accepted.
   */
  public boolean add(byte[] b, int off, int len) {
    if (len < 0 || off < 0 || off + len > b.length) {
      throw new IndexOutOfBoundsException(
          "entry [" + off + ", " + off + "+" + len + ") of a " + b.length + "-byte array");
    }
    int at = reserve(len);
    if (at < 0) {
      return false;
    }
    System.arraycopy(b, off, arena, at, len);
    commit(len);
    return true;
  }

  /**
   * Room for an entry of at most {@code maxLen} bytes written in place, so that a caller that
   * encodes entries (the scan's key extraction) writes each once, where it stays: returns the
   * offset in {@link #array()} where the entry goes, or -1, with nothing changed, when an entry of
   * {@code maxLen} bytes would take the buffer past its capacity. Then write the entry there and
   * {@link #commit} it, with no other call on this buffer in between; an entry not committed is not
   * added. {@link #add} is this with a copy.
   */
  public int reserve(int maxLen) {
    if (maxLen < 0) {
      throw new IllegalArgumentException("maxLen : " + maxLen + " (expected: >= 0)");
    }
    return reserve(1, maxLen);
  }

  /**
   * How many more entries of up to {@code maxLen} bytes fit in the buffer: a scan worker writes a
   * page's entries of one index as a run ({@link #reserveRun}), not with a reserve each.
   */
  public int room(int maxLen) {
    long free = capacity - dataLen - (long) INDEX_BYTES_PER_ENTRY * n;
    return (int) Math.min(Integer.MAX_VALUE, free / ((long) maxLen + INDEX_BYTES_PER_ENTRY));
  }

  /**
   * Room for {@code count} entries of up to {@code maxLen} bytes each, written one after another
   * from the offset returned, or -1 when they do not all fit ({@link #room}). They are added in
   * order by {@link #commitRun} when all have one length, or by one {@link #commit} each.
   */
  public int reserveRun(int count, int maxLen) {
    if (count < 1 || maxLen < 0) {
      throw new IllegalArgumentException(
          "run of " + count + " entries of " + maxLen + " bytes (expected: >= 1, >= 0)");
    }
    return reserve(count, maxLen);
  }

  private int reserve(int count, int maxLen) {
    long bytes = (long) count * maxLen;
    long need = dataLen + bytes + (long) INDEX_BYTES_PER_ENTRY * (n + count);
    if (need > capacity) {
      return -1;
    }
    if (stride > 0 || packed != null) {
      restorePairs();
    }
    if (need > arena.length) {
      grow(need);
    }
    reserved = (int) bytes;
    reservedEntries = count;
    return dataLen;
  }

  /** The arena, where {@link #reserve} places the next entry; changes when the buffer grows. */
  public byte[] array() {
    return arena;
  }

  /**
   * Adds the entry of {@code len} bytes written at the offset {@link #reserve} returned, or the
   * next one of a {@link #reserveRun}.
   */
  public void commit(int len) {
    if (reservedEntries < 1 || len < 0 || len > reserved) {
      throw notReserved(len + " bytes");
    }
    reserved -= len;
    reservedEntries--;
    arrivals.add(arena, dataLen, len);
    if (inArrivalOrder()) {
      pairsPending = true; // the packed sort needs no pairs; written if another sort does
    } else {
      writePendingPairs();
      PrefixSort.putPair(
          arena,
          start() - INDEX_BYTES_PER_ENTRY,
          0,
          Keys.prefix8(arena, dataLen, len),
          PrefixSort.ref(dataLen, len));
    }
    dataLen += len;
    n++;
    sorted = false; // isSorted: a buffer of one entry is sorted whatever this says
  }

  /**
   * Adds the {@code count} entries of {@code len} bytes each written one after another from the
   * offset {@link #reserveRun} returned. While the buffer qualifies for the packed sort and their
   * RIDs go on growing, that is one check of the RIDs and a few fields, not {@code count} commits.
   */
  public void commitRun(int count, int len) {
    if (count < 1 || count > reservedEntries || len < 0 || (long) count * len > reserved) {
      throw notReserved(count + " entries of " + len + " bytes");
    }
    if (!arrivalOrder || !arrivals.addRunInOrder(arena, dataLen, count, len)) {
      for (int j = 0; j < count; j++) {
        commit(len); // the general path decides, entry by entry
      }
      return;
    }
    pairsPending = true;
    dataLen += count * len;
    n += count;
    sorted = false; // isSorted: a buffer of one entry is sorted whatever this says
    reserved -= count * len;
    reservedEntries -= count;
  }

  private IllegalStateException notReserved(String what) {
    return new IllegalStateException(
        "commit of "
            + what
            + " (reserved: "
            + reservedEntries
            + " entries, "
            + reserved
            + " bytes)");
  }

  public boolean add(byte[] entry) {
    return add(entry, 0, entry.length);
  }

  /**
   * Writes the pairs {@code add} left out while every entry qualified for the packed sort: entry
   * {@code j} of the {@code n} (all of one length, so at {@code j × length}) gets pair {@code n - 1
   * - j}, as if each had been added with its pair.
   */
  private void writePendingPairs() {
    if (!pairsPending) {
      return;
    }
    pairsPending = false;
    int base = arena.length - INDEX_BYTES_PER_ENTRY * n;
    int len = n == 0 ? 0 : dataLen / n; // in add, before the new entry is counted
    for (int j = 0; j < n; j++) {
      int o = j * len;
      PrefixSort.putPair(
          arena, base, n - 1 - j, Keys.prefix8(arena, o, len), PrefixSort.ref(o, len));
    }
  }

  /**
   * {@link #sort}, except that packed entries are left in the order they came, for {@link
   * GroupSort} to sort with the group's other buffers ({@link #sort} still sorts them alone).
   */
  public void packInArrivalOrder() {
    if (stride == 0 && packed == null && !packs(false)) {
      sortEntries();
    }
  }

  /** Sorts the entries into unsigned byte order. Equal entries are all kept. */
  public void sort() {
    sortedByArrival = false;
    if (packed != null && !packed.keyOrdered()) {
      packed.sortKeys(); // packed in arrival order: sorted now
      sortedByArrival = true;
      sorted = true;
      return;
    }
    // Compacted or packed: in order, and nothing was added since (add restores pairs).
    if (stride == 0 && packed == null && !packs(true)) {
      sortEntries();
    }
  }

  /** The entries packed into longs, sorted or in arrival order, when they can be: true then. */
  private boolean packs(boolean sortThem) {
    if (!inArrivalOrder()) {
      return false;
    }
    PackedEntries p =
        sortThem
            ? PackedEntries.sort(arena, start(), n, arrivals.fixedLength())
            : PackedEntries.packInArrivalOrder(arena, start(), n, arrivals.fixedLength());
    if (p == null) {
      return false;
    }
    packed = p;
    arrivalOrder = false;
    pairsPending = false; // the pair region holds the packed longs now
    prefixesLoaded = false;
    sorted = p.keyOrdered();
    sortedByArrival = sorted;
    return true;
  }

  /** Sorts entries that are not packed: on the key part alone if they came in RID order. */
  private void sortEntries() {
    sortedByArrival = false;
    int base = start();
    boolean byArrival = inArrivalOrder();
    arrivalOrder = false;
    writePendingPairs();
    if (byArrival && ArrivalOrderSort.sort(arena, base, n, arrivals.fixedLength())) {
      sortedByArrival = true;
      prefixesLoaded = false;
      sorted = true;
      return;
    }
    if (!prefixesLoaded) {
      PrefixSort.reloadPrefixes(arena, base, n);
    }
    PrefixSort.sort(arena, base, n);
    // The sort leaves deeper keys in the prefix slots of tied entries.
    prefixesLoaded = false;
    sorted = true;
  }

  /**
   * Rewrites the sorted entries into a new arena of exactly their size, in sorted order, so that
   * reading them streams through memory instead of jumping around the arena: a kept buffer is read
   * once, in order, by the final merge. Costs one copy (the old arena lives until it is done). When
   * every entry has the same length the new arena holds the entries alone, without their 16-byte
   * pairs ({@link #bytesWhenCompact()}): a kept scan buffer of short keys takes half the memory.
   */
  public void compact() {
    compactInto();
  }

  /**
   * {@link #compact()}, then a new empty buffer of the same capacity that takes over the arena this
   * one let go: a scan worker keeps a full buffer and goes on filling its successor without
   * allocating and growing a new arena.
   */
  public EntryBuffer compactAndRenew() {
    byte[] old = compactInto();
    EntryBuffer next = new EntryBuffer(capacity);
    if (old != null && old.length <= capacity) {
      next.arena = old;
    }
    return next;
  }

  /** The bytes this buffer will hold after {@link #compact()}. */
  public long bytesWhenCompact() {
    long pairs = isFixedLength() ? 0 : (long) INDEX_BYTES_PER_ENTRY * n;
    return packed != null ? packed.compactBytes() : dataLen + pairs;
  }

  /** Every entry (at least one) has one length: {@link Arrivals} tracks each one. */
  private boolean isFixedLength() {
    return arrivals.fixedLength() > 0;
  }

  /** Every entry has one length and came in RID order, and nothing reordered them since. */
  private boolean inArrivalOrder() {
    return arrivalOrder && arrivals.ridOrder() && isFixedLength();
  }

  /** Compacts; returns the arena replaced, or null when nothing was replaced. */
  private byte[] compactInto() {
    if (packed != null) { // packed longs compact in either order
      if (!packed.compact()) {
        return null;
      }
      byte[] old = arena;
      arena = NO_BYTES;
      return old;
    }
    checkSorted();
    writePendingPairs();
    if (stride > 0) {
      return null;
    }
    boolean fixed = isFixedLength();
    int pairs = fixed ? 0 : INDEX_BYTES_PER_ENTRY * n;
    byte[] next = new byte[dataLen + pairs];
    int base = start();
    int nextBase = next.length - pairs;
    int pos = 0;
    for (int i = 0; i < n; i++) {
      long r = PrefixSort.refAt(arena, base, i);
      int len = PrefixSort.lengthOf(r);
      System.arraycopy(arena, PrefixSort.offsetOf(r), next, pos, len);
      if (!fixed) {
        PrefixSort.putPair(next, nextBase, i, 0, PrefixSort.ref(pos, len));
      }
      pos += len;
    }
    byte[] old = arena;
    arena = next;
    stride = fixed ? arrivals.fixedLength() : 0;
    prefixesLoaded = false; // a later sort() reloads them
    arrivalOrder = false;
    return old;
  }

  /** Back from the compact form to pairs, for an add after a compact: same sorted order. */
  private void restorePairs() {
    if (packed != null) {
      unpackToPairs();
      return;
    }
    int pairs = INDEX_BYTES_PER_ENTRY * n;
    byte[] next = new byte[(int) Math.min(capacity, Math.max(dataLen + pairs, 2L * arena.length))];
    System.arraycopy(arena, 0, next, 0, dataLen);
    int base = next.length - pairs;
    for (int i = 0; i < n; i++) {
      PrefixSort.putPair(next, base, i, 0, PrefixSort.ref(i * stride, stride));
    }
    arena = next;
    stride = 0;
  }

  /** The packed entries written out as entries and pairs, in their sorted order. */
  private void unpackToPairs() {
    int len = packed.entryLength();
    int pairs = INDEX_BYTES_PER_ENTRY * n;
    long size = Math.min(capacity, Math.max((long) len * n + pairs, 2L * arena.length));
    byte[] next = new byte[(int) Math.max(size, (long) len * n + pairs)];
    int base = next.length - pairs;
    for (int i = 0; i < n; i++) {
      packed.unpack(i, next, i * len);
      PrefixSort.putPair(next, base, i, 0, PrefixSort.ref(i * len, len));
    }
    arena = next;
    dataLen = len * n;
    packed = null;
  }

  /** Where entry {@code i} (in the current order) is: {@code offset << 32 | length}. */
  private long refOf(int i) {
    writePendingPairs();
    return stride > 0 ? PrefixSort.ref(i * stride, stride) : PrefixSort.refAt(arena, start(), i);
  }

  public boolean isSorted() {
    // Not kept up to date by the adds: "n <= 1" there was a branch the scan's compiled run loop
    // had never seen taken, and threw that code away when one page gave a buffer one entry.
    return sorted || n <= 1;
  }

  /** All entries in sorted order; {@link #sort()} first. The buffer must not change meanwhile. */
  public EntrySource source() {
    checkSorted();
    writePendingPairs();
    return packed != null ? packed.source(0, n) : new PairCursor(arena, start(), stride, 0, n);
  }

  /**
   * The sorted entries in {@code [from, to)}; a null bound is open. Found by binary search, for
   * merging one key range of a group on its own thread (see {@link Splitters}).
   */
  public EntrySource source(byte[] from, byte[] to) {
    checkSorted();
    writePendingPairs();
    int lo = from == null ? 0 : lowerBound(from);
    int hi = to == null ? n : lowerBound(to);
    return packed != null
        ? packed.source(lo, Math.max(lo, hi))
        : new PairCursor(arena, start(), stride, lo, Math.max(lo, hi));
  }

  /** Number of entries. */
  public int size() {
    return n;
  }

  /** Entry bytes plus {@value #INDEX_BYTES_PER_ENTRY} per entry: what counts against capacity. */
  public long bytesUsed() {
    if (packed != null && packed.isCompact()) {
      return packed.compactBytes();
    }
    return stride > 0 ? dataLen : dataLen + (long) INDEX_BYTES_PER_ENTRY * n;
  }

  public long capacity() {
    return capacity;
  }

  /** Bytes of the arena allocated now (at most the capacity). */
  public long bytesAllocated() {
    return arena.length + (packed != null && packed.isCompact() ? packed.compactBytes() : 0);
  }

  /** A copy of the {@code i}-th entry in the current order (sorted order after {@link #sort}). */
  public byte[] entryAt(int i) {
    if (i < 0 || i >= n) {
      throw new IndexOutOfBoundsException("entry " + i + " of " + n);
    }
    if (packed != null) {
      byte[] e = new byte[packed.entryLength()];
      packed.unpack(i, e, 0);
      return e;
    }
    long r = refOf(i);
    int o = PrefixSort.offsetOf(r);
    return Arrays.copyOfRange(arena, o, o + PrefixSort.lengthOf(r));
  }

  /** Forgets every entry and keeps the arena for the next batch. */
  public void clear() {
    reserved = 0;
    reservedEntries = 0;
    packed = null;
    pairsPending = false;
    n = 0;
    dataLen = 0;
    sorted = true;
    prefixesLoaded = true;
    stride = 0;
    arrivals.clear();
    arrivalOrder = true;
  }

  private int start() {
    return stride > 0 ? arena.length : arena.length - INDEX_BYTES_PER_ENTRY * n;
  }

  private void checkSorted() {
    if (!isSorted()) {
      throw new IllegalStateException("entry buffer is not sorted: call sort() before source()");
    }
  }

  private int lowerBound(byte[] key) {
    if (packed != null) {
      return packed.lowerBound(key);
    }
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long r = refOf(mid);
      int o = PrefixSort.offsetOf(r);
      if (Keys.compare(arena, o, PrefixSort.lengthOf(r), key, 0, key.length) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * A larger arena (doubling, at most the capacity): the data stays at the front, pairs at the top.
   */
  private void grow(long need) {
    long want =
        Math.max(
            need,
            arena.length == 0
                ? firstArena
                : Math.min(capacity, Math.max(2L * arena.length, MIN_ARENA)));
    byte[] next = new byte[(int) want];
    System.arraycopy(arena, 0, next, 0, dataLen);
    if (!pairsPending) {
      int pairs = INDEX_BYTES_PER_ENTRY * n;
      System.arraycopy(arena, arena.length - pairs, next, next.length - pairs, pairs);
    }
    arena = next;
    growths++;
  }

  /** The packed entries, or null when the entries are not packed. */
  PackedEntries packed() {
    return packed;
  }

  /** Whether the entries are packed into longs ({@link PackedEntries}): a test's handle on it. */
  boolean isPacked() {
    return packed != null;
  }

  /** Whether the last {@link #sort()} took the arrival-order path: a test's handle on it. */
  boolean sortedByArrival() {
    return sortedByArrival;
  }

  /** How many times the arena was reallocated: a test's handle on the growth policy. */
  int growths() {
    return growths;
  }
}
