package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.internal.io.RecordingKernel;
import dev.idxkit.core.internal.io.WriteBehind;
import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.internal.txn.StoreOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bulk session asks the kernel to start writing its pages out as they are written ({@link
 * WriteBehind}), closes every descriptor it opened for that, and publishes every page whether the
 * kernel takes the requests or refuses them.
 */
class BulkWriteBehindTest {
  private static final int PAGE_SIZE = 8192;

  @TempDir Path tmp;

  @ParameterizedTest(name = "refused: {0}")
  @ValueSource(booleans = {false, true})
  void aSessionStartsWriteBackAsItWritesAndPublishesEveryPage(boolean refused) {
    RecordingKernel kernel = new RecordingKernel(false, refused);
    Path dir = tmp.resolve("db");
    // Past two steps of one file, so that at least two requests are made.
    long[] pageNos = new long[(int) (2 * WriteBehind.STEP / PAGE_SIZE + 17)];
    StoreOptions options = StoreOptions.defaults().withPageSize(PAGE_SIZE);
    try (Store s =
        Store.create(dir, options.withWriteBehind(kernel), Map.of(0, "data"), new byte[0])) {
      try (BulkWrite bulk = s.beginBulk();
          BulkWrite.Stream out = bulk.stream(0)) {
        Page page = new Page(BytesStore.wrap(ByteBuffer.allocateDirect(PAGE_SIZE)), 0, PAGE_SIZE);
        for (int i = 0; i < pageNos.length; i++) {
          pageNos[i] = out.allocate();
          page.format(PageType.HEAP, pageNos[i], 0);
          page.putLong(Page.HEADER_SIZE, i * 31L);
          out.write(pageNos[i], page);
        }
        bulk.publish();
      }
    }
    assertThat(kernel.calls.stream().filter(c -> c.startsWith("start ")).count())
        .as("requests to start writing out")
        .isGreaterThanOrEqualTo(refused ? 1 : 2);
    assertThat(kernel.calls.stream().filter(c -> c.startsWith("open ")).count())
        .as("every descriptor opened is closed")
        .isEqualTo(kernel.calls.stream().filter(c -> c.startsWith("close ")).count());
    try (Store s = Store.open(dir, StoreOptions.defaults())) {
      Lock l = s.readLock();
      l.lock();
      try {
        for (int i = 0; i < pageNos.length; i++) {
          assertThat(s.committedPages(0).read(pageNos[i]).getLong(Page.HEADER_SIZE))
              .as("page %d", pageNos[i])
              .isEqualTo(i * 31L);
        }
      } finally {
        l.unlock();
      }
    }
  }
}
