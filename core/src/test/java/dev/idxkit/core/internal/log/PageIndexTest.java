package dev.idxkit.core.internal.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.internal.io.PageBuffer;
import dev.idxkit.core.internal.io.PagePool;
import dev.idxkit.core.spi.PageType;
import org.junit.jupiter.api.Test;

/** The worked example of {@link PageIndex}'s header, run. */
class PageIndexTest {
  private static final int PAGE = 4096;
  private final PagePool pool = new PagePool(PAGE, 16);
  private final PageIndex index = new PageIndex(pool);

  private PageBuffer committed(int area, long pageNo, long lsn) {
    PageBuffer b = pool.acquire();
    b.page.format(PageType.LEAF, pageNo, area);
    b.page.seal(lsn);
    return b;
  }

  @Test
  void newestImageWinsAndTheReplacedOneGoesBackToThePool() {
    PageBuffer data3 = committed(0, 3, 7);
    PageBuffer index12of7 = committed(1, 12, 7);
    index.install(data3);
    index.install(index12of7);
    PageBuffer index12of8 = committed(1, 12, 8);
    index.install(index12of8);

    assertThat(index.size()).isEqualTo(2);
    assertThat(index.get(1, 12).lsn()).isEqualTo(8);
    assertThat(index.get(0, 3).lsn()).isEqualTo(7);
    assertThat(index.get(1, 13)).as("not in the log: read the area file").isNull();
    assertThat(index.get(0, 12)).as("same page number, other area").isNull();
    assertThat(pool.acquire()).as("the image of 7 was released").isSameAs(index12of7);
  }

  /**
   * {@code fresh} says whether the page's first record since the index began was FRESH: a newer
   * image keeps the flag of the one it replaces, whatever its own record was; an image of a page
   * the index did not hold keeps its own.
   */
  @Test
  void aNewerImageKeepsTheFreshFlagOfThePagesFirstRecord() {
    PageBuffer formatted = committed(0, 3, 7);
    formatted.fresh = true;
    index.install(formatted);
    PageBuffer changed = committed(0, 3, 8);
    index.install(changed);
    assertThat(index.buffer(PageIndex.key(0, 3)).fresh).as("FRESH first, a delta after").isTrue();

    PageBuffer home = committed(0, 4, 7);
    index.install(home);
    PageBuffer formattedAgain = committed(0, 4, 8);
    formattedAgain.fresh = true;
    index.install(formattedAgain);
    assertThat(index.buffer(PageIndex.key(0, 4)).fresh).as("a delta first, FRESH after").isFalse();
  }

  /**
   * After a failed checkpoint the active index takes the older index's images back; where both hold
   * a page, the older one's record came first, so its flag is the page's.
   */
  @Test
  void absorbingAFailedCheckpointsIndexKeepsTheOlderFlagWhereBothHoldThePage() {
    PageIndex older = new PageIndex(pool);
    PageBuffer olderFresh = committed(0, 3, 7);
    olderFresh.fresh = true;
    older.install(olderFresh);
    older.install(committed(0, 4, 7)); // a delta against the home copy
    PageBuffer olderOnly = committed(0, 5, 7);
    olderOnly.fresh = true;
    older.install(olderOnly);
    index.install(committed(0, 3, 9)); // a delta against the older index's image
    PageBuffer reformatted = committed(0, 4, 9);
    reformatted.fresh = true;
    index.install(reformatted);
    PageBuffer activeOnly = committed(0, 6, 9);
    activeOnly.fresh = true;
    index.install(activeOnly);

    index.absorbOlder(older);

    assertThat(older.isEmpty()).isTrue();
    assertThat(index.get(0, 3).lsn()).as("the newer image stays").isEqualTo(9);
    assertThat(index.buffer(PageIndex.key(0, 3)).fresh).isTrue();
    assertThat(index.buffer(PageIndex.key(0, 4)).fresh).isFalse();
    assertThat(index.buffer(PageIndex.key(0, 5)).fresh).isTrue();
    assertThat(index.buffer(PageIndex.key(0, 6)).fresh).isTrue();
  }

  @Test
  void keysSortByAreaThenPageAndPackBothHalves() {
    index.install(committed(1, 12, 8));
    index.install(committed(0, 3, 7));
    index.install(committed(0, 1L << 40, 7));

    long[] keys = index.sortedKeys();

    assertThat(keys).containsExactly(0x3L, 1L << 40, 0x0001_0000_0000_000cL);
    assertThat(PageIndex.areaOf(keys[2])).isEqualTo(1);
    assertThat(PageIndex.pageOf(keys[2])).isEqualTo(12);
    assertThat(index.buffer(keys[0]).page.pageNo()).isEqualTo(3);
  }

  @Test
  void clearEmptiesTheIndexAndReturnsEveryBuffer() {
    PageBuffer a = committed(0, 3, 7);
    PageBuffer b = committed(1, 12, 7);
    index.install(a);
    index.install(b);

    index.clear();

    assertThat(index.isEmpty()).isTrue();
    assertThat(index.get(0, 3)).isNull();
    assertThat(new Object[] {pool.acquire(), pool.acquire()}).containsExactlyInAnyOrder(a, b);
  }

  @Test
  void installCopyKeepsItsOwnCopyOfTheImage() {
    PageBuffer src = committed(0, 5, 9);
    index.installCopy(0, 5, src.page);
    src.page.format(PageType.LEAF, 6, 0); // the caller's image changes after the call

    assertThat(index.get(0, 5).pageNo()).isEqualTo(5);
    assertThat(index.get(0, 5).lsn()).isEqualTo(9);
  }
}
