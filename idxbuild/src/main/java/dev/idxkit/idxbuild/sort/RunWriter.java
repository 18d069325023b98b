package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.idxbuild.temp.Segment;
import dev.idxkit.idxbuild.temp.TempSpace;
import dev.idxkit.idxbuild.temp.TempSpaceExhaustedException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Writes one sorted run of a sort group to {@link TempSpace} segments, in the block format of
 * {@link RunFormat}, and keeps the run's sparse index in memory.
 *
 * <p>Call order: {@code new RunWriter(space, group, blockSize)}; {@link #add} per entry in
 * non-decreasing unsigned order (checked: an entry below its predecessor is a bug upstream and
 * fails) or {@link #addAll} for a sorted {@link EntrySource}; {@link #finish()} returns the {@link
 * Run}; {@link #close()} always (try-with-resources): after {@code finish} it only closes, before
 * it (a failure) it deletes the segments written so far.
 *
 * <p>Steps: each entry is prefix-compressed against its predecessor into the open block; when the
 * next entry would take the block past {@code blockSize}, the block's header and CRC32C are filled
 * in, the block's bytes are {@linkplain TempSpace#reserve reserved} (which may move the run to a
 * new segment in another directory) and written with one positional write. The sparse index gets
 * the block's place, entry count and first entry.
 *
 * <p>Memory: one block buffer ({@code blockSize}, more only for a single larger entry), a copy of
 * the previous entry, and the sparse index (about 32 bytes plus the first entry per block). Disk:
 * the blocks, nothing else; no fsync (runs do not outlive the process). Not thread-safe.
 */
public final class RunWriter implements AutoCloseable {
  /** The {@code -TB} bounds: 8..64 KB. */
  public static final int MIN_BLOCK_SIZE = 8 * 1024;

  public static final int MAX_BLOCK_SIZE = 64 * 1024;

  private enum State {
    OPEN,
    FINISHED,
    CLOSED
  }

  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final TempSpace space;
  private final int group;
  private final int blockSize;
  private State state = State.OPEN;

  private byte[] block;
  private int pos = RunFormat.HEADER;
  private int count;
  private byte[] prev = new byte[64];
  private int prevLen;
  private boolean hasPrev;

  private final List<Segment> segments = new ArrayList<>();
  private Segment segment;
  private FileChannel channel;

  private int blocks;
  private int[] blockSegment = new int[16];
  private long[] blockOffset = new long[16];
  private int[] blockLength = new int[16];
  private int[] blockCount = new int[16];
  private byte[] firsts = new byte[256];
  private int[] firstOffset = new int[17];

  private long entries;
  private long entryBytes;

  /**
   * @param space where the segments go
   * @param group the sort group, which picks the directory
   * @param blockSize the {@code -TB} block size in bytes, {@value #MIN_BLOCK_SIZE}..{@value
   *     #MAX_BLOCK_SIZE}
   */
  public RunWriter(TempSpace space, int group, int blockSize) {
    if (blockSize < MIN_BLOCK_SIZE || blockSize > MAX_BLOCK_SIZE) {
      throw new IllegalArgumentException(
          "blockSize : "
              + blockSize
              + " (expected: "
              + MIN_BLOCK_SIZE
              + ".."
              + MAX_BLOCK_SIZE
              + ")");
    }
    if (group < 0) {
      throw new IllegalArgumentException("group : " + group + " (expected: >= 0)");
    }
    this.space = space;
    this.group = group;
    this.blockSize = blockSize;
    this.block = new byte[blockSize];
  }

  /**
   * Appends {@code b[off, off+len)}, which must not sort below the previous entry.
   *
   * @throws TempSpaceExhaustedException when a full block finds no directory with room
   */
  public void add(byte[] b, int off, int len) {
    if (state != State.OPEN) {
      throw new IllegalStateException("run writer is " + state);
    }
    int common = 0;
    if (hasPrev) {
      int m = mismatch(prev, prevLen, b, off, len);
      if (m < 0) {
        common = len;
      } else {
        if (m == len || (m < prevLen && (b[off + m] & 0xFF) < (prev[m] & 0xFF))) {
          throw outOfOrder(b, off, len);
        }
        common = m;
      }
    }
    int shared = count == 0 ? 0 : common;
    int suffix = len - shared;
    int need = RunFormat.varintLength(shared) + RunFormat.varintLength(suffix) + suffix;
    if (count > 0 && pos + need > blockSize) {
      flush();
      shared = 0;
      suffix = len;
      need = RunFormat.varintLength(0) + RunFormat.varintLength(len) + len;
    }
    if (count == 0) {
      if (RunFormat.HEADER + need > block.length) {
        block = new byte[RunFormat.HEADER + need]; // one oversize entry gets a block of its own
      }
      recordFirst(b, off, len);
    }
    pos = RunFormat.putVarint(block, pos, shared);
    pos = RunFormat.putVarint(block, pos, suffix);
    System.arraycopy(b, off + shared, block, pos, suffix);
    pos += suffix;
    count++;
    if (len > prev.length) {
      prev = Arrays.copyOf(prev, Math.max(len, 2 * prev.length));
    }
    System.arraycopy(b, off + common, prev, common, len - common);
    prevLen = len;
    hasPrev = true;
    entries++;
    entryBytes += len;
    if (count == 1 && pos > blockSize) {
      flush(); // the oversize entry's block is complete
      block = new byte[blockSize];
    }
  }

  /**
   * {@link Arrays#mismatch(byte[], int, int, byte[], int, int)} of {@code a[0, aLen)} and {@code
   * b[off, off+len)}: the first index where they differ, the shorter length if one is a prefix of
   * the other, -1 if equal. Eight bytes at a time in plain Java: entries are short, and for 20-byte
   * entries the library's vectorized mismatch cost more to set up than to run (a quarter of the
   * scan threads' time when the sort spilled).
   */
  static int mismatch(byte[] a, int aLen, byte[] b, int off, int len) {
    int n = Math.min(aLen, len);
    int i = 0;
    while (i + 8 <= n) {
      long x = (long) BE_LONG.get(a, i);
      long y = (long) BE_LONG.get(b, off + i);
      if (x != y) {
        return i + (Long.numberOfLeadingZeros(x ^ y) >>> 3);
      }
      i += 8;
    }
    while (i < n) {
      if (a[i] != b[off + i]) {
        return i;
      }
      i++;
    }
    return aLen == len ? -1 : n;
  }

  public void add(byte[] entry) {
    add(entry, 0, entry.length);
  }

  /** Appends every remaining entry of {@code source}; does not close it. */
  public void addAll(EntrySource source) {
    while (source.next()) {
      add(source.array(), source.offset(), source.length());
    }
  }

  /** Entries added so far. */
  public long entries() {
    return entries;
  }

  /** Writes the last block and returns the run. The writer then only needs closing. */
  public Run finish() {
    if (state != State.OPEN) {
      throw new IllegalStateException("run writer is " + state);
    }
    if (count > 0) {
      flush();
    }
    closeChannel();
    state = State.FINISHED;
    return new Run(
        space,
        group,
        segments,
        blocks,
        blockSegment,
        blockOffset,
        blockLength,
        blockCount,
        firsts,
        firstOffset,
        entryBytes);
  }

  /** Idempotent. Before {@link #finish()} it abandons the run and deletes its segments. */
  @Override
  public void close() {
    if (state == State.CLOSED) {
      return;
    }
    boolean abandon = state == State.OPEN;
    state = State.CLOSED;
    try {
      closeChannel();
    } finally {
      if (abandon) {
        for (Segment s : segments) {
          space.release(s);
        }
      }
    }
  }

  private void flush() {
    int length = pos;
    RunFormat.writeHeader(block, count, length - RunFormat.HEADER);
    if (segment == null) {
      segment = space.newSegment(group);
      segments.add(segment);
    }
    Segment s = space.reserve(segment, length);
    if (s != segment) {
      closeChannel();
      if (segment.size() == 0) {
        segments.remove(segment);
        space.release(segment);
      }
      segment = s;
      segments.add(s);
    }
    long at = segment.size() - length;
    try {
      if (channel == null) {
        channel = space.io().open(segment.path(), Set.of(StandardOpenOption.WRITE));
      }
      ByteBuffer buf = ByteBuffer.wrap(block, 0, length);
      while (buf.hasRemaining()) {
        channel.write(buf, at + buf.position());
      }
    } catch (IOException e) {
      throw new IdxkitIOException(
          "cannot write sort run block at offset " + at + " of " + segment.path(), e);
    }
    ensureBlockSlots();
    blockSegment[blocks] = segments.size() - 1;
    blockOffset[blocks] = at;
    blockLength[blocks] = length;
    blockCount[blocks] = count;
    blocks++;
    pos = RunFormat.HEADER;
    count = 0;
  }

  /** Copies the first entry of the block now starting (block number {@code blocks}). */
  private void recordFirst(byte[] b, int off, int len) {
    ensureBlockSlots();
    int at = firstOffset[blocks];
    if (at + len > firsts.length) {
      firsts = Arrays.copyOf(firsts, Math.max(at + len, 2 * firsts.length));
    }
    System.arraycopy(b, off, firsts, at, len);
    firstOffset[blocks + 1] = at + len;
  }

  private void ensureBlockSlots() {
    if (blocks + 1 >= blockSegment.length) {
      int n = blockSegment.length * 2;
      blockSegment = Arrays.copyOf(blockSegment, n);
      blockOffset = Arrays.copyOf(blockOffset, n);
      blockLength = Arrays.copyOf(blockLength, n);
      blockCount = Arrays.copyOf(blockCount, n);
      firstOffset = Arrays.copyOf(firstOffset, n + 1);
    }
  }

  private void closeChannel() {
    FileChannel c = channel;
    channel = null;
    if (c != null) {
      try {
        c.close();
      } catch (IOException e) {
        throw new IdxkitIOException("cannot close sort run file " + segment.path(), e);
      }
    }
  }

  private IllegalArgumentException outOfOrder(byte[] b, int off, int len) {
    HexFormat hex = HexFormat.of();
    return new IllegalArgumentException(
        "run entries out of order: entry "
            + entries
            + " ("
            + hex.formatHex(b, off, off + Math.min(len, 32))
            + (len > 32 ? "..." : "")
            + ") sorts below the previous entry ("
            + hex.formatHex(prev, 0, Math.min(prevLen, 32))
            + (prevLen > 32 ? "..." : "")
            + ")");
  }
}
