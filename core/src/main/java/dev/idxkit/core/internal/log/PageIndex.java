package dev.idxkit.core.internal.log;

import dev.idxkit.core.internal.io.PageBuffer;
import dev.idxkit.core.internal.io.PagePool;
import dev.idxkit.core.internal.io.PageTable;
import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;

/**
 * The log's page index: for every page changed since the last checkpoint, the newest committed
 * image of it, which readers must see instead of the (older) page in the area file. It plays the
 * part of SQLite's wal-index, with one difference: it holds the image itself in direct memory, not
 * the offset of its frame in the log, so a read of a page still in the log costs one hash lookup
 * and no I/O.
 *
 * <p>Call order: a commit reads the previous image of each page it changed ({@link #get}: the base
 * its redo record is a delta against; for a page not here, its first change since the checkpoint,
 * the base is its home copy), logs, then {@link #install}s the new images (each replacing the
 * page's older image, whose buffer goes back to the pool); recovery {@link #applyRedo}s the records
 * it replays in log order (or, from a format 1 log or a double write, {@link #installCopy}s its
 * images); readers {@link #get} a page and fall back to the area file when it is not here; a
 * checkpoint writes the images home in {@link #sortedKeys()} order, then {@link #clear}s the index.
 *
 * <p>Keys: area and page packed in a long, so sorting the keys sorts by (area, page), the order a
 * checkpoint writes in:
 *
 * <pre>
 *   63      48 47                                              0
 *   aaaaaaaa aaaaaaaa pppppppp ... pppppppp     a: area id (16 bits), p: page number (48 bits)
 * </pre>
 *
 * <p>A worked example (area 0 = data, 1 = index). Transaction 7 changes data page 3 and index page
 * 12; transaction 8 changes index page 12 again:
 *
 * <pre>
 * log:   [header][7 PAGE data 3][7 PAGE index 12][7 COMMIT][8 PAGE index 12][8 COMMIT]
 * index: 0x0000_0000_0000_0003 -> data 3 as of 7
 *        0x0001_0000_0000_000c -> index 12 as of 8 (the image of 7 went back to the pool)
 * read(index, 12) -> the image of 8;  read(index, 13) -> not here: read the area file
 * checkpoint: sortedKeys() = [data 3, index 12] written home in that order; then clear(), and
 *             the log is reset to its header
 * </pre>
 *
 * <p>Memory: one page buffer per distinct page changed since the last checkpoint: the dirty pages,
 * which live here until a checkpoint writes them home. The store bounds them ({@code
 * dirtyPageBytes}): a commit that leaves more checkpoints, as one that leaves the log past {@code
 * checkpointBytes} does. The log holds only what changed, so the image here is the only whole copy
 * of a page's newest state until its checkpoint.
 *
 * <p>The images are held in a {@link PageTable} (a radix table per area), so a lookup costs two
 * loads from small arrays and the keys come out in (area, page) order without a sort.
 *
 * <p>Not thread-safe: the store changes it under its visibility write lock and reads it under the
 * read lock.
 */
public final class PageIndex {
  private final PageTable<PageBuffer> images = new PageTable<>();
  private final PagePool pool;
  private final byte[] scratch;

  public PageIndex(PagePool pool) {
    this.pool = pool;
    this.scratch = new byte[pool.pageSize()];
  }

  public static long key(int area, long page) {
    return PageTable.key(area, page);
  }

  public static int areaOf(long key) {
    return PageTable.areaOf(key);
  }

  public static long pageOf(long key) {
    return PageTable.pageOf(key);
  }

  /** The newest committed image of the page, or null when the area file has the current one. */
  public Page get(int area, long pageNo) {
    if (images.isEmpty()) {
      return null;
    }
    PageBuffer b = images.get(area, pageNo);
    return b != null ? b.page : null;
  }

  public boolean contains(int area, long pageNo) {
    return images.get(area, pageNo) != null;
  }

  /** Pages held. */
  public int size() {
    return images.size();
  }

  public boolean isEmpty() {
    return images.isEmpty();
  }

  /**
   * Makes a committed page buffer the page's newest image; the index now owns the buffer. {@code
   * b.fresh} says whether its record was a FRESH one; when the index held an older image, the
   * page's first record since the index began is that image's, and so is the flag.
   */
  public void install(PageBuffer b) {
    PageBuffer older = images.put(key(b.page.areaId(), b.page.pageNo()), b);
    if (older != null) {
      b.fresh = older.fresh;
      pool.release(older);
    }
  }

  /** Installs a copy of {@code image} (valid only during the call), as recovery replays it. */
  public void installCopy(int area, long pageNo, Page image) {
    PageBuffer buf = pool.acquire();
    buf.page.copyFrom(image);
    pool.release(images.put(key(area, pageNo), buf));
  }

  /** Where recovery reads a page's home copy: the area file, its checksum checked. */
  @FunctionalInterface
  public interface HomeCopies {
    /** The home copy of the page; valid only until the next call. */
    Page read(int area, long pageNo);
  }

  /**
   * Recovery: applies the redo record at {@code pos} in {@code record} of the transaction {@code
   * lsn} ({@code sealed}: a format 2 record, whose images carry valid checksums). A FULL or FRESH
   * record installs the page's image; a DELTA changes the image held, which must be the one it was
   * computed against, or, when none is held and {@code home} is given (a format 4 log), a copy of
   * the page's home copy read through it. Throws {@link IllegalArgumentException} naming the page
   * when the record does not apply (a delta with no image and no home copy to apply to, or another
   * base).
   */
  public void applyRedo(
      ByteBuffer record,
      int pos,
      long lsn,
      boolean sealed,
      HomeCopies home,
      RedoRecord.Layout layout) {
    RedoRecord.Header h = RedoRecord.readHeader(record, pos, pool.pageSize(), layout, lsn);
    PageBuffer b = h.full() || h.fresh() ? null : images.get(key(h.area(), h.pageNo()));
    boolean fresh = b == null;
    if (fresh) {
      if (!h.full() && !h.fresh() && home == null) {
        throw new IllegalArgumentException(
            "a delta of area "
                + h.area()
                + " page "
                + h.pageNo()
                + " with no image of the page before it in the log (expected: a full image first)");
      }
      b = pool.acquire();
      if (!h.full() && !h.fresh()) {
        b.page.copyFrom(home.read(h.area(), h.pageNo()));
      }
    }
    try {
      RedoReplay.apply(record, pos, b.page, lsn, scratch, sealed, layout);
    } catch (RuntimeException e) {
      if (fresh) {
        pool.release(b);
      }
      throw e;
    }
    if (fresh) {
      install(b);
    }
  }

  /**
   * Takes the images of {@code older} (a checkpoint's index that failed to write them home) for the
   * pages this index does not hold; the others are older than this index's and go back to the pool,
   * leaving their {@code fresh} flag to this index's image: the page's first record since the older
   * index began is theirs. Leaves {@code older} empty.
   */
  public void absorbOlder(PageIndex older) {
    for (long k : older.images.sortedKeys()) {
      PageBuffer b = older.images.get(k);
      PageBuffer newer = images.get(k);
      if (newer != null) {
        newer.fresh = b.fresh;
        pool.release(b);
      } else {
        images.put(k, b);
      }
    }
    older.images.clear();
  }

  /** The keys of every page held, in (area, page) order. */
  public long[] sortedKeys() {
    return images.sortedKeys();
  }

  /** The buffer held for {@code key}, or null. */
  public PageBuffer buffer(long key) {
    return images.get(key);
  }

  /** Forgets every image (they are home now) and returns the buffers to the pool. */
  public void clear() {
    images.forEachValue(pool::release);
    images.clear();
  }
}
