package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link PagePool}: slabs sliced into pages, buffers reused, at most {@code maxPooled} kept. */
class PagePoolTest {
  private static final int PAGE = 4096;

  @Test
  void aSlabIsSlicedAndReleasedBuffersAreTakenFirst() {
    PagePool pool = new PagePool(PAGE, 16);
    PageBuffer a = pool.acquire();
    // A slab of five pages for a pool that keeps 16 (a quarter and one): the others idle.
    assertThat(pool.idle()).isEqualTo(4);
    for (int i = 0; i < 4; i++) {
      assertThat(pool.acquire()).isNotSameAs(a);
    }
    assertThat(pool.idle()).isZero();
    pool.release(a);
    assertThat(pool.idle()).isEqualTo(1);
    assertThat(pool.acquire()).isSameAs(a);
    assertThat(a.fresh).isFalse();
  }

  @Test
  void releaseKeepsAtMostMaxPooled() {
    PagePool pool = new PagePool(PAGE, 16);
    List<PageBuffer> taken = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      taken.add(pool.acquire());
    }
    int before = pool.idle();
    taken.forEach(pool::release);
    assertThat(pool.idle()).isEqualTo(16).isGreaterThanOrEqualTo(before);
  }
}
