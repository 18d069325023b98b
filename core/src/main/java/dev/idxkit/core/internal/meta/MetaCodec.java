package dev.idxkit.core.internal.meta;

import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.core.spi.TableState;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * Serializes a {@link MetaState} plus the areas' free lists into one meta slot payload.
 *
 * <pre>
 * u32 FORMAT_VERSION
 * u64 dbId.msb, u64 dbId.lsb, u32 pageSize, u64 generation, u64 checkpointLsn
 * u32 catalogLength, catalog bytes
 * u16 areaSlots, per slot: u16 nameLength (0: no area), UTF-8 name, u64 hwm,
 *                          u32 freeRuns, freeRuns × (u64 start, u64 length)
 * u32 tables,  per table: u32 id, u64 rows, u32 runs, runs × (u64 start, u64 length)
 * u32 indexes, per index: u32 id, u64 root, u8 status
 * u32 resumePoints, per point: u16 keyLength, UTF-8 key, u32 valueLength, value
 * </pre>
 *
 * Big-endian (DataOutput). Decoding checks every length against what is left, so a damaged payload
 * fails with a message rather than an allocation of gigabytes.
 */
public final class MetaCodec {
  public static final int FORMAT_VERSION = 1;

  private MetaCodec() {}

  public static byte[] encode(MetaState s, List<FreeList> free) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(FORMAT_VERSION);
      out.writeLong(s.dbId().getMostSignificantBits());
      out.writeLong(s.dbId().getLeastSignificantBits());
      out.writeInt(s.pageSize());
      out.writeLong(s.generation());
      out.writeLong(s.checkpointLsn());
      byte[] cat = s.catalogUnsafe();
      out.writeInt(cat.length);
      out.write(cat);
      int areas = Math.max(s.areaSlots(), free.size());
      out.writeShort(areas);
      for (int a = 0; a < areas; a++) {
        byte[] name =
            s.areaName(a) == null ? new byte[0] : s.areaName(a).getBytes(StandardCharsets.UTF_8);
        out.writeShort(name.length);
        out.write(name);
        out.writeLong(s.hwm(a));
        FreeList f = a < free.size() && free.get(a) != null ? free.get(a) : new FreeList();
        out.writeInt(f.runCount());
        IOException[] err = new IOException[1];
        f.forEachRun(
            (start, len) -> {
              try {
                out.writeLong(start);
                out.writeLong(len);
              } catch (IOException e) {
                err[0] = e;
              }
            });
        if (err[0] != null) {
          throw err[0];
        }
      }
      out.writeInt(s.tables().size());
      for (var e : s.tables().entrySet()) {
        out.writeInt(e.getKey());
        out.writeLong(e.getValue().rows());
        long[] runs = e.getValue().pages().toArray();
        out.writeInt(runs.length / 2);
        for (long v : runs) {
          out.writeLong(v);
        }
      }
      out.writeInt(s.indexes().size());
      for (var e : s.indexes().entrySet()) {
        out.writeInt(e.getKey());
        out.writeLong(e.getValue().root());
        out.writeByte(e.getValue().status().ordinal());
      }
      out.writeInt(s.resumePoints().size());
      for (var e : s.resumePoints().entrySet()) {
        byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
        out.writeShort(k.length);
        out.write(k);
        out.writeInt(e.getValue().length);
        out.write(e.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The decoded state and free lists (one per area slot). */
  public record Decoded(MetaState state, List<FreeList> free) {}

  /** Throws {@link IllegalArgumentException} naming the field when the payload is malformed. */
  public static Decoded decode(byte[] payload) {
    ByteBuffer in = ByteBuffer.wrap(payload);
    try {
      int version = in.getInt();
      if (version != FORMAT_VERSION) {
        throw new IllegalArgumentException(
            "meta format version " + version + " (expected: " + FORMAT_VERSION + ")");
      }
      UUID id = new UUID(in.getLong(), in.getLong());
      int pageSize = in.getInt();
      MetaState.Builder b = MetaState.builder(id, pageSize);
      b.generation(in.getLong());
      b.checkpointLsn(in.getLong());
      b.catalog(bytes(in, in.getInt(), "catalog"));
      int areas = in.getShort() & 0xFFFF;
      List<FreeList> free = new java.util.ArrayList<>(areas);
      for (int a = 0; a < areas; a++) {
        int nameLength = in.getShort() & 0xFFFF;
        if (nameLength > 0) {
          b.area(a, new String(bytes(in, nameLength, "area name"), StandardCharsets.UTF_8));
        }
        b.hwm(a, in.getLong());
        FreeList f = new FreeList();
        int runs = count(in, in.getInt(), 16, "free runs of area " + a);
        for (int r = 0; r < runs; r++) {
          long start = in.getLong();
          long len = in.getLong();
          if (start <= 0 || len <= 0) {
            throw new IllegalArgumentException("free run " + start + "+" + len + " of area " + a);
          }
          f.addRun(start, len);
        }
        free.add(f);
      }
      int tables = count(in, in.getInt(), 16, "tables");
      for (int t = 0; t < tables; t++) {
        int tid = in.getInt();
        long rows = in.getLong();
        int runs = count(in, in.getInt(), 16, "page runs of table " + tid);
        long[] pairs = new long[2 * runs];
        for (int r = 0; r < pairs.length; r++) {
          pairs[r] = in.getLong();
        }
        b.table(tid, new TableState(PageRuns.ofArray(pairs), rows));
      }
      int indexes = count(in, in.getInt(), 13, "indexes");
      IndexStatus[] statuses = IndexStatus.values();
      for (int i = 0; i < indexes; i++) {
        int iid = in.getInt();
        long root = in.getLong();
        int st = in.get() & 0xFF;
        if (st >= statuses.length) {
          throw new IllegalArgumentException("index " + iid + " status " + st);
        }
        b.index(iid, new IndexState(root, statuses[st]));
      }
      int points = count(in, in.getInt(), 6, "resume points");
      for (int p = 0; p < points; p++) {
        String key = new String(bytes(in, in.getShort() & 0xFFFF, "key"), StandardCharsets.UTF_8);
        b.resume(key, bytes(in, in.getInt(), "resume point " + key));
      }
      if (in.hasRemaining()) {
        throw new IllegalArgumentException(in.remaining() + " trailing bytes");
      }
      return new Decoded(b.build(), free);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("meta payload truncated at byte " + in.position());
    } catch (IllegalStateException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }

  private static int count(ByteBuffer in, int n, int minBytesEach, String what) {
    if (n < 0 || (long) n * minBytesEach > in.remaining()) {
      throw new IllegalArgumentException(
          what + " count " + n + " exceeds the " + in.remaining() + " bytes left");
    }
    return n;
  }

  private static byte[] bytes(ByteBuffer in, int n, String what) {
    if (n < 0 || n > in.remaining()) {
      throw new IllegalArgumentException(
          what + " length " + n + " exceeds the " + in.remaining() + " bytes left");
    }
    byte[] b = new byte[n];
    in.get(b);
    return b;
  }
}
