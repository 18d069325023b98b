package dev.idxkit.loader.shards;

import dev.idxkit.core.btree.TreeCursor;
import dev.idxkit.core.key.Keys;
import dev.idxkit.idxbuild.sort.EntrySource;

/**
 * One shard's index read in order, each entry's RID moved by the shard's page offset, as an {@link
 * EntrySource} for the merge. The offset moves every RID of the shard by the same amount, so the
 * order of {@code key || rid} entries within the shard is unchanged.
 *
 * <p>Memory: one entry buffer, reused ({@code scratchEntry}); the cursor holds one leaf.
 */
final class ShardEntries implements EntrySource {
  private final TreeCursor cursor;
  private final long offset;
  private final byte[] scratchEntry;
  private boolean started;
  private boolean done;
  private int length;

  ShardEntries(TreeCursor cursor, long pageOffset, int maxEntry) {
    this.cursor = cursor;
    this.offset = pageOffset;
    this.scratchEntry = new byte[maxEntry];
  }

  @Override
  public boolean next() {
    if (done) {
      return false;
    }
    boolean on = started ? cursor.next() : cursor.first();
    started = true;
    if (!on) {
      done = true;
      return false;
    }
    length = cursor.copyEntry(scratchEntry, 0);
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
