package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.spi.Keys;
import dev.idxkit.idxbuild.temp.Segment;
import dev.idxkit.idxbuild.temp.TempSpace;
import java.util.Arrays;
import java.util.List;

/**
 * A sorted run on disk, as {@link RunWriter#finish()} left it: its segment files and its sparse
 * index, the in-memory table of blocks. Read it with {@link RunReader}; {@link #delete()} gives its
 * files back to the {@link TempSpace} once merged.
 *
 * <p>Sparse index, per block: the segment it is in, its offset and length there, its entry count,
 * the number of entries before it, and a copy of its first entry. That lets a reader start at the
 * first block that can hold a key, lets {@link Splitters} choose balanced key ranges without
 * reading the files, and lets a reader check each block it reads against what was written.
 *
 * <p>Memory: about 32 bytes plus the first entry per block (a 1 GiB run of 64 KB blocks: 16 K
 * blocks, about 1.5 MB with 60-byte entries). Immutable except for the deleted flag; safe to read
 * from several threads.
 */
public final class Run {
  private final TempSpace space;
  private final int group;
  private final List<Segment> segments;
  private final int blocks;
  private final int[] blockSegment;
  private final long[] blockOffset;
  private final int[] blockLength;
  private final int[] blockCount;
  private final long[] entriesBefore; // blocks + 1 values
  private final byte[] firsts;
  private final int[] firstOffset; // blocks + 1 values: first entry of block b is [fo[b], fo[b+1])
  private final long entryBytes;
  private final long diskBytes;
  private final int maxBlockLength;
  private volatile boolean deleted;

  Run(
      TempSpace space,
      int group,
      List<Segment> segments,
      int blocks,
      int[] blockSegment,
      long[] blockOffset,
      int[] blockLength,
      int[] blockCount,
      byte[] firsts,
      int[] firstOffset,
      long entryBytes) {
    this.space = space;
    this.group = group;
    this.segments = List.copyOf(segments);
    this.blocks = blocks;
    this.blockSegment = Arrays.copyOf(blockSegment, blocks);
    this.blockOffset = Arrays.copyOf(blockOffset, blocks);
    this.blockLength = Arrays.copyOf(blockLength, blocks);
    this.blockCount = Arrays.copyOf(blockCount, blocks);
    this.firstOffset = Arrays.copyOf(firstOffset, blocks + 1);
    this.firsts = Arrays.copyOf(firsts, this.firstOffset[blocks]);
    this.entriesBefore = new long[blocks + 1];
    long disk = 0;
    int maxLen = 0;
    for (int b = 0; b < blocks; b++) {
      entriesBefore[b + 1] = entriesBefore[b] + blockCount[b];
      disk += blockLength[b];
      maxLen = Math.max(maxLen, blockLength[b]);
    }
    this.entryBytes = entryBytes;
    this.diskBytes = disk;
    this.maxBlockLength = maxLen;
  }

  public int group() {
    return group;
  }

  /** The space its files belong to (and whose {@code FileIo} opens them). */
  TempSpace space() {
    return space;
  }

  /** Number of entries. */
  public long entries() {
    return entriesBefore[blocks];
  }

  /** Sum of the entries' lengths (before prefix compression). */
  public long entryBytes() {
    return entryBytes;
  }

  /** Bytes in the segment files. */
  public long diskBytes() {
    return diskBytes;
  }

  public int blocks() {
    return blocks;
  }

  /** The files, in order; a run that rolled over to another directory has several. */
  public List<Segment> segments() {
    return segments;
  }

  /** A copy of the first entry of block {@code b}. */
  public byte[] blockFirstEntry(int b) {
    checkBlock(b);
    return Arrays.copyOfRange(firsts, firstOffset[b], firstOffset[b + 1]);
  }

  public int blockEntryCount(int b) {
    checkBlock(b);
    return blockCount[b];
  }

  /** Entries in the blocks before {@code b} ({@code b == blocks()} gives the total). */
  public long entriesBefore(int b) {
    if (b < 0 || b > blocks) {
      throw new IndexOutOfBoundsException("block " + b + " of " + blocks);
    }
    return entriesBefore[b];
  }

  /** Deletes the run's files. Idempotent; the run cannot be read afterwards. */
  public void delete() {
    if (deleted) {
      return;
    }
    deleted = true;
    for (Segment s : segments) {
      space.release(s);
    }
  }

  public boolean isDeleted() {
    return deleted;
  }

  /**
   * The first block that can hold an entry {@code >= from}: the last block whose first entry is
   * {@code < from} (entries equal to {@code from} may end that block), else block 0.
   */
  int firstBlockFor(byte[] from) {
    int lo = 0;
    int hi = blocks; // find the first block with first entry >= from
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareFirst(mid, from) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return Math.max(0, lo - 1);
  }

  /**
   * One past the last block that can hold an entry {@code < to}: the first block starting {@code >=
   * to}.
   */
  int endBlockFor(byte[] to) {
    int lo = 0;
    int hi = blocks;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareFirst(mid, to) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  int compareFirst(int b, byte[] key) {
    return Keys.compare(
        firsts, firstOffset[b], firstOffset[b + 1] - firstOffset[b], key, 0, key.length);
  }

  /** True when {@code e[off, off+len)} equals the recorded first entry of block {@code b}. */
  boolean firstEquals(int b, byte[] e, int off, int len) {
    return Arrays.equals(firsts, firstOffset[b], firstOffset[b + 1], e, off, off + len);
  }

  int blockSegment(int b) {
    return blockSegment[b];
  }

  long blockOffset(int b) {
    return blockOffset[b];
  }

  int blockLength(int b) {
    return blockLength[b];
  }

  int maxBlockLength() {
    return maxBlockLength;
  }

  private void checkBlock(int b) {
    if (b < 0 || b >= blocks) {
      throw new IndexOutOfBoundsException("block " + b + " of " + blocks);
    }
  }

  @Override
  public String toString() {
    return "run of group "
        + group
        + ": "
        + entries()
        + " entries, "
        + blocks
        + " blocks, "
        + diskBytes
        + " bytes in "
        + segments;
  }
}
