package dev.idxkit.core;

/**
 * A unique index would hold the same key twice, found while building it from existing rows (by the
 * rebuilder, or a load's deferred index build): the key and the RIDs of both rows, so the loader
 * can show the two rows.
 *
 * <p>Why a subclass here rather than fields on {@link DuplicateKeyException}: the core exception
 * comes from row-by-row inserts, where the second row has no RID yet. A rebuild has both.
 */
public class DuplicateEntryException extends DuplicateKeyException {
  private static final long serialVersionUID = 1L;

  private final long firstRid;
  private final long secondRid;

  /**
   * @param index the unique index
   * @param key the key as text, e.g. {@code (l_orderkey=1, l_linenumber=3)}
   * @param firstRid the RID of the row whose entry sorts first
   * @param secondRid the RID of the other row
   */
  public DuplicateEntryException(String index, String key, long firstRid, long secondRid) {
    super(index, key);
    this.firstRid = firstRid;
    this.secondRid = secondRid;
  }

  public long firstRid() {
    return firstRid;
  }

  public long secondRid() {
    return secondRid;
  }

  @Override
  public String getMessage() {
    return super.getMessage()
        + ": rows "
        + Rid.toString(firstRid)
        + " and "
        + Rid.toString(secondRid);
  }
}
