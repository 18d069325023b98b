package dev.idxkit.core.internal.txn;

import dev.idxkit.core.internal.btree.ChangeBuffer;
import dev.idxkit.core.internal.meta.MetaEdits;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@link ChangeBuffer}s of a store's indexes, by index id, with the area each index lives in
 * (what a merge needs to open its tree) and the estimated heap bytes of them all. One instance
 * holds the committed changes (readers see it under the read lock, the writer changes it under the
 * write lock), another a transaction's own until it commits; recovery fills one from the log's
 * edits.
 */
final class ChangeBuffers implements MetaEdits.BufferSink {
  /** One index's buffer, and where its tree is. */
  record Held(int index, int area, String name, ChangeBuffer buffer) {}

  private final Map<Integer, Held> byIndex = new HashMap<>();
  private long bytes;

  /** The buffer of {@code index}, or null when nothing is buffered for it. */
  ChangeBuffer get(int index) {
    Held h = byIndex.get(index);
    return h == null ? null : h.buffer;
  }

  Held held(int index) {
    return byIndex.get(index);
  }

  @Override
  public void change(int index, int area, byte[] entry, boolean insert) {
    change(index, area, "#" + index, entry, insert);
  }

  /** Applies one change ({@link ChangeBuffer#apply}); {@code name} names the index in messages. */
  void change(int index, int area, String name, byte[] entry, boolean insert) {
    Held h = byIndex.get(index);
    if (h == null) {
      h = new Held(index, area, name, new ChangeBuffer());
      byIndex.put(index, h);
    } else if (h.area != area) {
      throw new IllegalStateException(
          "index " + index + " buffered in area " + area + " and in area " + h.area);
    }
    long before = h.buffer.bytes();
    h.buffer.apply(entry, insert);
    bytes += h.buffer.bytes() - before;
    if (h.buffer.isEmpty()) {
      byIndex.remove(index);
    }
  }

  @Override
  public void drained(int index, byte[] last) {
    Held h = byIndex.get(index);
    if (h == null) {
      throw new IllegalStateException("index " + index + " drained with nothing buffered");
    }
    long before = h.buffer.bytes();
    h.buffer.dropThrough(last);
    bytes += h.buffer.bytes() - before;
    if (h.buffer.isEmpty()) {
      byIndex.remove(index);
    }
  }

  @Override
  public void discard(int index) {
    Held h = byIndex.remove(index);
    if (h != null) {
      bytes -= h.buffer.bytes();
    }
  }

  @Override
  public void reset() {
    clear();
  }

  /**
   * Writes every buffer's composed changes to {@code out}, after a BUFFERS_RESET: replayed, they
   * give these buffers back whatever the replay had before.
   */
  void snapshot(MetaEdits out) {
    // Room for every change at once: grown by doubling from 256 bytes, the 10 MB of edits of a
    // buffer of 400,000 changes were copied 16 times over, each time into a new array the process
    // had never touched.
    out.reserve(bytes + BUFFERED_EDIT_BYTES * changes());
    out.buffersReset();
    for (Held h : byIndex.values()) {
      h.buffer.forEachChange(
          (a, off, len, insert) -> out.buffered(h.index, h.area, a, off, len, insert));
    }
  }

  boolean isEmpty() {
    return byIndex.isEmpty();
  }

  /** Estimated heap bytes of every buffer. */
  long bytes() {
    return bytes;
  }

  /** Buffered changes, all indexes. */
  long changes() {
    long n = 0;
    for (Held h : byIndex.values()) {
      n += h.buffer.size();
    }
    return n;
  }

  /** The buffer holding the most bytes, or null when none. */
  Held largest() {
    Held best = null;
    for (Held h : byIndex.values()) {
      if (best == null || h.buffer.bytes() > best.buffer.bytes()) {
        best = h;
      }
    }
    return best;
  }

  /** Adds every change held here, index by index, to {@code into} (as its newest changes). */
  void applyTo(ChangeBuffers into) {
    for (Held h : byIndex.values()) {
      into.addAll(h.index, h.area, h.name, h.buffer);
    }
  }

  private void addAll(int index, int area, String name, ChangeBuffer newer) {
    Held h = byIndex.get(index);
    if (h == null) {
      h = new Held(index, area, name, new ChangeBuffer());
      byIndex.put(index, h);
    }
    long before = h.buffer.bytes();
    h.buffer.addAll(newer);
    bytes += h.buffer.bytes() - before;
    if (h.buffer.isEmpty()) {
      byIndex.remove(index);
    }
  }

  void clear() {
    byIndex.clear();
    bytes = 0;
  }

  /** Makes each buffer one run ({@link ChangeBuffer#compact}). */
  void compact() {
    for (Held h : byIndex.values()) {
      long before = h.buffer.bytes();
      h.buffer.compact();
      bytes += h.buffer.bytes() - before;
    }
    byIndex.values().removeIf(h -> h.buffer.isEmpty());
  }

  /** What a BUFFERED edit takes besides the entry's bytes: op, index, area, kind, length. */
  private static final int BUFFERED_EDIT_BYTES = 9;
}
