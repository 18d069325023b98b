package dev.idxkit.loader.shards;

import dev.idxkit.core.spi.Keys;
import dev.idxkit.core.spi.TreeEntries;
import dev.idxkit.idxbuild.sort.EntrySource;

/**
 * One shard's index read in order, each entry's RID moved by the shard's page offset, as an {@link
 * EntrySource} for the merge. The offset moves every RID of the shard by the same amount, so the
 * order of {@code key || rid} entries within the shard is unchanged.
 *
 * <p>Memory: one entry buffer, reused ({@code scratchEntry}); the cursor holds one leaf.
 */
final class ShardEntries implements EntrySource {
  private final TreeEntries tree;
  private final long offset;
  private final byte[] scratchEntry;
  private boolean done;
  private int length;

  ShardEntries(TreeEntries tree, long pageOffset, int maxEntry) {
    this.tree = tree;
    this.offset = pageOffset;
    this.scratchEntry = new byte[maxEntry];
  }

  @Override
  public boolean next() {
    if (done) {
      return false;
    }
    if (!tree.next()) {
      done = true;
      return false;
    }
    length = tree.copyEntry(scratchEntry, 0);
    if (offset != 0) {
      long rid = Keys.rid(scratchEntry, 0, length);
      Keys.putRid(scratchEntry, length, ShardMerge.remap(rid, offset));
    }
    return true;
  }

  @Override
  public byte[] array() {
    return scratchEntry;
  }

  @Override
  public int offset() {
    return 0;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public void close() {
    done = true;
  }
}
