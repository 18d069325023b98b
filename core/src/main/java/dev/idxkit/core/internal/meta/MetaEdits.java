package dev.idxkit.core.internal.meta;

import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.TableState;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The meta changes of one transaction, logged in its WAL commit frame so recovery can redo them on
 * top of the checkpointed meta. A live transaction applies each change as it makes it and appends
 * it here; {@link #replay} applies a logged sequence the same way.
 *
 * <pre>
 * op (u8)          operands (big-endian)
 * 1 ALLOC          u8 area, u64 page      taken from the free list, or the high-water mark
 * 2 FREE           u8 area, u64 page      back to the free list
 * 3 TABLE_ADD      u32 table, u64 page    page joins the table's heap
 * 4 TABLE_REMOVE   u32 table, u64 page
 * 5 ROWS           u32 table, i64 delta
 * 6 ROOT           u32 index, u64 root
 * 7 INDEX_STATE    u32 index, u64 root, u8 status (255: the index is gone)
 * 8 CATALOG        u32 length, encoded schema
 * 9 AREA           u8 area, u16 length, UTF-8 name
 * 10 RESUME        u16 key length, UTF-8 key, i32 value length (-1: removed), value
 * 11 BUFFERED      u32 index, u8 area, u8 insert (1) or delete (0), u16 length, entry
 * 12 DRAINED       u32 index, u16 length, entry (the buffer's changes up to it are in the tree)
 * 13 BUFFERS_RESET  (none: every buffer emptied; the BUFFERED edits after it are their contents)
 * </pre>
 *
 * <p>BUFFERED and DRAINED (log format 5) keep an index's change buffer: a change buffered instead
 * of made in the tree, and a merge that moved the buffer's lowest changes into the tree in the same
 * transaction. An INDEX_STATE edit discards the index's buffer (its tree was replaced or dropped).
 * BUFFERS_RESET starts the snapshot of every buffer that a checkpoint beside the commits writes at
 * the head of the log segment it starts, so that the log it leaves behind is not needed for them.
 */
public final class MetaEdits {
  static final byte ALLOC = 1;
  static final byte FREE = 2;
  static final byte TABLE_ADD = 3;
  static final byte TABLE_REMOVE = 4;
  static final byte ROWS = 5;
  static final byte ROOT = 6;
  static final byte INDEX_STATE = 7;
  static final byte CATALOG = 8;
  static final byte AREA = 9;
  static final byte RESUME = 10;
  static final byte BUFFERED = 11;
  static final byte DRAINED = 12;
  static final byte BUFFERS_RESET = 13;

  /** Where replay sends the change-buffer edits. */
  public interface BufferSink {
    void change(int index, int area, byte[] entry, boolean insert);

    void drained(int index, byte[] last);

    void discard(int index);

    /** Empties every buffer: a snapshot of them all follows. */
    void reset();
  }

  /** A sink for a log that holds no change-buffer edits: any is damage. */
  private static final BufferSink NO_BUFFERS =
      new BufferSink() {
        @Override
        public void change(int index, int area, byte[] entry, boolean insert) {
          throw new IllegalStateException("change-buffer edit for index " + index);
        }

        @Override
        public void drained(int index, byte[] last) {
          throw new IllegalStateException("change-buffer edit for index " + index);
        }

        @Override
        public void discard(int index) {}

        @Override
        public void reset() {
          throw new IllegalStateException("change-buffer snapshot");
        }
      };

  private byte[] buf = new byte[256];
  private int len;

  public boolean isEmpty() {
    return len == 0;
  }

  /** Makes room for {@code bytes} more bytes of edits at once (an estimate; more still fits). */
  public void reserve(long bytes) {
    ensure((int) Math.min(bytes, Integer.MAX_VALUE - 16L - len));
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  public void clear() {
    len = 0;
  }

  public void alloc(int area, long page) {
    op(ALLOC).u8(area).u64(page);
  }

  public void free(int area, long page) {
    op(FREE).u8(area).u64(page);
  }

  public void tableAdd(int table, long page) {
    op(TABLE_ADD).u32(table).u64(page);
  }

  public void tableRemove(int table, long page) {
    op(TABLE_REMOVE).u32(table).u64(page);
  }

  public void rows(int table, long delta) {
    op(ROWS).u32(table).u64(delta);
  }

  public void root(int index, long root) {
    op(ROOT).u32(index).u64(root);
  }

  public void indexState(int index, IndexState state) {
    op(INDEX_STATE).u32(index);
    u64(state == null ? 0 : state.root());
    u8(state == null ? 255 : state.status().ordinal());
  }

  public void buffered(int index, int area, byte[] entry, boolean insert) {
    buffered(index, area, entry, 0, entry.length, insert);
  }

  /** As {@link #buffered(int, int, byte[], boolean)}, the entry being {@code a[off, off + len)}. */
  public void buffered(int index, int area, byte[] a, int off, int len, boolean insert) {
    op(BUFFERED).u32(index).u8(area).u8(insert ? 1 : 0);
    bytes(a, off, len);
  }

  public void buffersReset() {
    op(BUFFERS_RESET);
  }

  public void drained(int index, byte[] last) {
    op(DRAINED).u32(index);
    bytes(last);
  }

  private void bytes(byte[] b) {
    bytes(b, 0, b.length);
  }

  private void bytes(byte[] b, int off, int n) {
    if (n > 0xFFFF) {
      throw new IllegalArgumentException("entry of " + n + " bytes (expected: <= 65535)");
    }
    ensure(2 + n);
    buf[len++] = (byte) (n >>> 8);
    buf[len++] = (byte) n;
    System.arraycopy(b, off, buf, len, n);
    len += n;
  }

  public void catalog(byte[] catalog) {
    op(CATALOG).u32(catalog.length);
    ensure(catalog.length);
    System.arraycopy(catalog, 0, buf, len, catalog.length);
    len += catalog.length;
  }

  public void area(int area, String name) {
    byte[] n = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    op(AREA).u8(area);
    ensure(2 + n.length);
    buf[len++] = (byte) (n.length >>> 8);
    buf[len++] = (byte) n.length;
    System.arraycopy(n, 0, buf, len, n.length);
    len += n.length;
  }

  public void resume(String key, byte[] value) {
    byte[] k = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    op(RESUME);
    ensure(2 + k.length + 4 + (value == null ? 0 : value.length));
    buf[len++] = (byte) (k.length >>> 8);
    buf[len++] = (byte) k.length;
    System.arraycopy(k, 0, buf, len, k.length);
    len += k.length;
    u32(value == null ? -1 : value.length);
    if (value != null) {
      System.arraycopy(value, 0, buf, len, value.length);
      len += value.length;
    }
  }

  /**
   * Applies logged edits to a meta builder and the writer's free lists (one per area, grown as
   * needed). Throws {@link IllegalArgumentException} when the log contradicts the state, which
   * means the log or the meta is damaged.
   */
  public static void replay(byte[] log, MetaState.Builder meta, List<FreeList> free) {
    replay(log, meta, free, NO_BUFFERS);
  }

  /**
   * As {@link #replay(byte[], MetaState.Builder, List)}, change-buffer edits going to {@code sink}.
   */
  public static void replay(
      byte[] log, MetaState.Builder meta, List<FreeList> free, BufferSink buffers) {
    BufferSink sink = buffers == null ? NO_BUFFERS : buffers;
    ByteBuffer in = ByteBuffer.wrap(log);
    try {
      while (in.hasRemaining()) {
        byte op = in.get();
        switch (op) {
          case ALLOC -> applyAlloc(meta, free, in.get() & 0xFF, in.getLong());
          case FREE -> freeList(free, in.get() & 0xFF).add(in.getLong());
          case TABLE_ADD -> {
            int t = in.getInt();
            TableState s = meta.table(t);
            meta.table(t, new TableState(s.pages().add(in.getLong()), s.rows()));
          }
          case TABLE_REMOVE -> {
            int t = in.getInt();
            TableState s = meta.table(t);
            meta.table(t, new TableState(s.pages().remove(in.getLong()), s.rows()));
          }
          case ROWS -> {
            int t = in.getInt();
            TableState s = meta.table(t);
            meta.table(t, new TableState(s.pages(), s.rows() + in.getLong()));
          }
          case ROOT -> {
            int i = in.getInt();
            long root = in.getLong();
            IndexState s = meta.index(i);
            meta.index(i, new IndexState(root, s == null ? IndexStatus.ACTIVE : s.status()));
          }
          case INDEX_STATE -> {
            int i = in.getInt();
            long root = in.getLong();
            int st = in.get() & 0xFF;
            sink.discard(i);
            if (st == 255) {
              meta.index(i, null);
            } else if (st < IndexStatus.values().length) {
              meta.index(i, new IndexState(root, IndexStatus.values()[st]));
            } else {
              throw new IllegalArgumentException("index " + i + " status " + st);
            }
          }
          case CATALOG -> {
            int n = in.getInt();
            if (n < 0 || n > in.remaining()) {
              throw new IllegalArgumentException("catalog of " + n + " bytes in the edit log");
            }
            byte[] c = new byte[n];
            in.get(c);
            meta.catalog(c);
          }
          case AREA -> {
            int a = in.get() & 0xFF;
            byte[] n = new byte[in.getShort() & 0xFFFF];
            in.get(n);
            meta.area(a, new String(n, java.nio.charset.StandardCharsets.UTF_8));
          }
          case RESUME -> {
            byte[] k = new byte[in.getShort() & 0xFFFF];
            in.get(k);
            int n = in.getInt();
            byte[] v = null;
            if (n >= 0) {
              if (n > in.remaining()) {
                throw new IllegalArgumentException(
                    "resume point of " + n + " bytes in the edit log");
              }
              v = new byte[n];
              in.get(v);
            }
            meta.resume(new String(k, java.nio.charset.StandardCharsets.UTF_8), v);
          }
          case BUFFERED -> {
            int i = in.getInt();
            int area = in.get() & 0xFF;
            int ins = in.get() & 0xFF;
            if (ins > 1) {
              throw new IllegalArgumentException("index " + i + " buffered change kind " + ins);
            }
            sink.change(i, area, entry(in), ins == 1);
          }
          case DRAINED -> {
            int i = in.getInt();
            sink.drained(i, entry(in));
          }
          case BUFFERS_RESET -> sink.reset();
          default ->
              throw new IllegalArgumentException(
                  "unknown meta edit " + op + " at byte " + (in.position() - 1));
        }
      }
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("meta edit log truncated at byte " + in.position());
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException("meta edit log does not fit the meta: " + e.getMessage());
    }
  }

  private static byte[] entry(ByteBuffer in) {
    byte[] e = new byte[in.getShort() & 0xFFFF];
    in.get(e);
    return e;
  }

  /**
   * An allocation: a page at the high-water mark raises it; any other page leaves the free list.
   */
  public static void applyAlloc(MetaState.Builder meta, List<FreeList> free, int area, long page) {
    long hwm = meta.hwm(area);
    if (page >= hwm) {
      meta.hwm(area, page + 1);
      // Pages skipped over (never expected, but harmless) stay usable.
      if (page > hwm) {
        freeList(free, area).addRun(hwm, page - hwm);
      }
    } else if (!freeList(free, area).remove(page)) {
      throw new IllegalStateException("page " + page + " of area " + area + " is not free");
    }
  }

  public static FreeList freeList(List<FreeList> free, int area) {
    while (free.size() <= area) {
      free.add(new FreeList());
    }
    return free.get(area);
  }

  private MetaEdits op(byte op) {
    ensure(16);
    buf[len++] = op;
    return this;
  }

  private MetaEdits u8(int v) {
    buf[len++] = (byte) v;
    return this;
  }

  private MetaEdits u32(int v) {
    for (int s = 24; s >= 0; s -= 8) {
      buf[len++] = (byte) (v >>> s);
    }
    return this;
  }

  private MetaEdits u64(long v) {
    for (int s = 56; s >= 0; s -= 8) {
      buf[len++] = (byte) (v >>> s);
    }
    return this;
  }

  private void ensure(int n) {
    if (len + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
    }
  }
}
