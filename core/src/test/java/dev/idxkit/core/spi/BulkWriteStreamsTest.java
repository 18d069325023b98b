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

  @Test
  void moreStreamsThanBuffersAllWriteAndPublish() throws Exception {
    Map<Integer, String> areas = new HashMap<>();
    for (int a = 0; a < AREAS; a++) {
      areas.put(a, "a" + a);
    }
    long[][] pageNos = new long[AREAS][PAGES];
    Store s =
        Store.create(
            tmp.resolve("db"), StoreOptions.defaults().withPageSize(PAGE_SIZE), areas, new byte[0]);
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
    Map<Integer, String> areas = new HashMap<>();
    for (int a = 0; a < AREAS; a++) {
      areas.put(a, "a" + a);
    }
    try (Store s =
            Store.create(
                tmp.resolve("db"),
                StoreOptions.defaults().withPageSize(PAGE_SIZE),
                areas,
                new byte[0]);
        BulkWrite bulk = s.beginBulk()) {
      assertThat(bulk.writerBuffers()).as("more streams than the pool's buffers").isLessThan(AREAS);
      openAndClose(bulk, false);
      int grown = bulk.writerBuffers();
      assertThat(grown).as("one buffer per open stream").isGreaterThanOrEqualTo(AREAS);
      openAndClose(bulk, false);
      assertThat(bulk.writerBuffers()).as("streams that wrote nothing").isEqualTo(grown);
      openAndClose(bulk, true);
      openAndClose(bulk, true);
      assertThat(bulk.writerBuffers()).as("streams that wrote a page each").isEqualTo(grown);
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
      Page page = new Page(BytesStore.wrap(ByteBuffer.allocateDirect(PAGE_SIZE)), 0, PAGE_SIZE);
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
      Page page = new Page(BytesStore.wrap(ByteBuffer.allocateDirect(PAGE_SIZE)), 0, PAGE_SIZE);
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
