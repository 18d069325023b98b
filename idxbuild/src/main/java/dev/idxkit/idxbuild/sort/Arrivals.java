package dev.idxkit.idxbuild.sort;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * What an {@link EntryBuffer} knows of its entries as they come: whether all have one length, and
 * whether their RIDs (the last 8 bytes) never fell. While both hold, and nothing has reordered the
 * entries, the buffer can pack them into longs or sort them on the key part alone.
 */
final class Arrivals {
  private static final VarHandle RID =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private int fixedLength = -1; // -1: no entry yet; -2: lengths differ; 0: empty entries
  private boolean ridOrder = true;
  // 0 before the first entry, which every RID (compared unsigned) is at least: the first entry
  // needs no test of its own, and a run's loop no branch for it.
  private long lastRid;

  /** The entry of {@code len} bytes at {@code b[off]} came. */
  void add(byte[] b, int off, int len) {
    if (fixedLength != len) {
      fixedLength = fixedLength == -1 ? len : -2;
    }
    if (ridOrder) {
      if (len < 8) {
        ridOrder = false;
        return;
      }
      long rid = (long) RID.get(b, off + len - 8);
      ridOrder = Long.compareUnsigned(rid, lastRid) >= 0;
      lastRid = rid;
    }
  }

  /**
   * The {@code count} entries of {@code len} bytes each from {@code b[off]} came, if they keep both
   * conditions (one length, RIDs that never fall from the last one on): true then. Otherwise
   * records nothing, and the caller adds them one at a time.
   */
  boolean addRunInOrder(byte[] b, int off, int count, int len) {
    if (!ridOrder || len < 8 || (fixedLength != -1 && fixedLength != len)) {
      return false;
    }
    long last = lastRid;
    for (int j = 0, at = off + len - 8; j < count; j++, at += len) {
      long rid = (long) RID.get(b, at);
      if (Long.compareUnsigned(rid, last) < 0) {
        return false;
      }
      last = rid;
    }
    fixedLength = len;
    lastRid = last;
    return true;
  }

  /** The entries' one length: > 0 when every entry (at least one) has it. */
  int fixedLength() {
    return fixedLength;
  }

  boolean ridOrder() {
    return ridOrder;
  }

  void clear() {
    fixedLength = -1;
    ridOrder = true;
    lastRid = 0;
  }
}
