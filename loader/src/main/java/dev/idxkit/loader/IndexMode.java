package dev.idxkit.loader;

/**
 * What a load does with the target table's indexes.
 *
 * <ul>
 *   <li>{@link #DEFERRED} (the default): the indexes are marked inactive before the first row is
 *       appended, the rows go to heap pages through the bulk path, and at the end one {@link
 *       IndexBuild} rebuilds every index of the table from the heap and makes them active again.
 *       This is {@code proutil -C load ... build indexes}: the fastest way to fill a table.
 *   <li>{@link #NONE}: as {@code DEFERRED} without the build: the load ends with the indexes
 *       inactive (neither maintained nor readable) and its summary names the command that builds
 *       them ({@code idxkit idxbuild DB --inactive}).
 *   <li>{@link #LIVE}: every row is inserted through transactions into the heap and every active
 *       index, one by one - OpenEdge's MKEYED path. Slower, but the indexes stay usable throughout,
 *       which is what loading into a big non-empty table wants; a row that would duplicate a unique
 *       key is rejected like any other bad row.
 * </ul>
 */
public enum IndexMode {
  DEFERRED,
  NONE,
  LIVE;

  /** True for the modes that append through a bulk session (no log, one publish per checkpoint). */
  public boolean bulk() {
    return this != LIVE;
  }
}
