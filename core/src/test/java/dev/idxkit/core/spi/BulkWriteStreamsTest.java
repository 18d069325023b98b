package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.internal.txn.Store;
import dev.idxkit.core.internal.txn.StoreOptions;
import dev.idxkit.core.testing.Within;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * More streams open at once than the session's writer has buffers, as a rebuild has when a sort
 * group's indexes live in many areas: each stream keeps a partly filled buffer between its pages,
 * and the stream that needs one more must get it rather than wait for ever.
 */
class BulkWriteStreamsTest {
  private static final int PAGE_SIZE = 8192;
  private static final int AREAS = 40; // the writer's pool holds 16 buffers
  private static final int PAGES = 5;

  @TempDir Path tmp;

  /** A store with {@value #AREAS} areas. */
  private Store newStore() throws Exception {
    Map<Integer, String> areas = new HashMap<>();
    for (int a = 0; a < AREAS; a++) {
      areas.put(a, "a" + a);
    }
    return Store.create(
        tmp.resolve("db"), StoreOptions.defaults().withPageSize(PAGE_SIZE), areas, new byte[0]);
  }

  private static Page newPage() {
    return new Page(BytesStore.wrap(ByteBuffer.allocateDirect(PAGE_SIZE)), 0, PAGE_SIZE);
  }

  @Test
  void moreStreamsThanBuffersAllWriteAndPublish() throws Exception {
    long[][] pageNos = new long[AREAS][PAGES];
    Store s = newStore();
    // On a daemon thread with a limit: the old hang becomes a failure (a waiting acquire ignores
    // interrupts, and the store is then left open: closing it would wait for the stuck session).
    // The writes take milliseconds.
    Within.seconds(
        60,
        "the streams' writes",
        () -> {
          writeAcrossAllStreams(s, pageNos);
          return null;
        });
    try (s) {
      for (int a = 0; a < AREAS; a++) {
        for (int i = 0; i < PAGES; i++) {
          Page p = s.committedPages(a).read(pageNos[a][i]);
          assertThat(p.pageNo()).isEqualTo(pageNos[a][i]);
          assertThat(p.getLong(Page.HEADER_SIZE))
              .as("area %d page %d", a, i)
              .isEqualTo(a * 1000L + i);
        }
      }
    }
  }

  /**
   * A stream takes its buffer when it is opened, so one closed without a page must give it back,
   * and one closed with pages must send it and get it back once written: opening as many streams
   * again then needs no new buffer. (A stream that kept its buffer would cost 1 MiB of memory per
   * stream for the session's life, not a wrong page, so nothing else would notice.)
   */
  @Test
  void closedStreamsGiveTheirBuffersBack() throws Exception {
    try (Store s = newStore();
        BulkWrite bulk = s.beginBulk()) {
      assertThat(bulk.writerBuffers()).as("more streams than the pool's buffers").isLessThan(AREAS);
      openAndClose(bulk, false);
      // Nothing in flight while they opened: the pool grew to exactly one buffer per stream.
      assertThat(bulk.writerBuffers()).as("one buffer per open stream").isEqualTo(AREAS);
      openAndClose(bulk, false);
      assertThat(bulk.writerBuffers()).as("streams that wrote nothing").isEqualTo(AREAS);
      openAndClose(bulk, true);
      openAndClose(bulk, true);
      assertThat(bulk.writerBuffers()).as("streams that wrote a page each").isEqualTo(AREAS);
      bulk.publish();
    }
  }

  /** Opens a stream per area, all at once, writes a page into each if asked, and closes them. */
  private static void openAndClose(BulkWrite bulk, boolean write) {
    List<BulkWrite.Stream> streams = new ArrayList<>();
    for (int a = 0; a < AREAS; a++) {
      streams.add(bulk.stream(a));
    }
    if (write) {
      Page page = newPage();
      for (int a = 0; a < AREAS; a++) {
        BulkWrite.Stream out = streams.get(a);
        long no = out.allocate();
        page.format(PageType.HEAP, no, a);
        out.write(no, page);
      }
    }
    streams.forEach(BulkWrite.Stream::close);
  }

  /** Page by page across all the streams, none closed before the last: each holds a buffer. */
  private static void writeAcrossAllStreams(Store s, long[][] pageNos) {
    try (BulkWrite bulk = s.beginBulk()) {
      List<BulkWrite.Stream> streams = new ArrayList<>();
      for (int a = 0; a < AREAS; a++) {
        streams.add(bulk.stream(a));
      }
      Page page = newPage();
      for (int i = 0; i < PAGES; i++) {
        for (int a = 0; a < AREAS; a++) {
          BulkWrite.Stream out = streams.get(a);
          long no = out.allocate();
          pageNos[a][i] = no;
          page.format(PageType.HEAP, no, a);
          page.putLong(Page.HEADER_SIZE, a * 1000L + i);
          out.write(no, page);
        }
      }
      streams.forEach(BulkWrite.Stream::close);
      bulk.publish();
    }
  }
}
