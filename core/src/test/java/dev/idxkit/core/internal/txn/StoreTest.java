package dev.idxkit.core.internal.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.DatabaseLockedException;
import dev.idxkit.core.Durability;
import dev.idxkit.core.internal.log.RedoRecord;
import dev.idxkit.core.internal.log.WalFormat;
import dev.idxkit.core.internal.meta.MetaFile;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.testing.CrashCopy;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreTest {
  @TempDir Path tmp;

  static final int T = 1;

  private Store create(Path dir) {
    return Store.create(
        dir,
        StoreOptions.defaults().withPageSize(4096),
        Map.of(0, "data", 1, "index"),
        new byte[] {7});
  }

  /** Allocates a heap page holding {@code value} and registers it with table T. */
  private static long put(StoreTxn txn, long value) {
    Page p = txn.pages(0).allocate(PageType.HEAP);
    p.putLong(Page.HEADER_SIZE, value);
    txn.addTablePage(T, p.pageNo());
    txn.addRows(T, 1);
    return p.pageNo();
  }

  private static long valueOf(Store s, long page) {
    Lock l = s.readLock();
    l.lock();
    try {
      return s.committedPages(0).read(page).getLong(Page.HEADER_SIZE);
    } finally {
      l.unlock();
    }
  }

  @Test
  void committedPagesSurviveCloseAndReopen() {
    Path dir = tmp.resolve("db");
    long a;
    long b;
    try (Store s = create(dir)) {
      try (StoreTxn t = s.begin(null)) {
        a = put(t, 11);
        b = put(t, 22);
        t.commit();
      }
      assertThat(valueOf(s, a)).isEqualTo(11);
      assertThat(s.meta().table(T).rows()).isEqualTo(2);
    }
    try (Store s = Store.open(dir, StoreOptions.defaults())) {
      assertThat(valueOf(s, a)).isEqualTo(11);
      assertThat(valueOf(s, b)).isEqualTo(22);
      assertThat(s.meta().table(T).pages().pageCount()).isEqualTo(2);
      assertThat(s.meta().catalog()).containsExactly(7);
      assertThat(s.pageSize()).isEqualTo(4096);
    }
  }

  @Test
  void rollbackLeavesNoTraceAndGivesPagesBack() {
    try (Store s = create(tmp.resolve("db"))) {
      long first;
      try (StoreTxn t = s.begin(null)) {
        first = put(t, 1);
        t.commit();
      }
      try (StoreTxn t = s.begin(null)) {
        t.pages(0).write(first).putLong(Page.HEADER_SIZE, 99);
        t.pages(0).free(first);
        put(t, 2);
        t.rollback();
      }
      assertThat(valueOf(s, first)).isEqualTo(1);
      assertThat(s.meta().table(T).rows()).isEqualTo(1);
      try (StoreTxn t = s.begin(null)) {
        assertThat(put(t, 3)).isEqualTo(first + 1);
        t.commit();
      }
    }
  }

  @Test
  void freedPagesAreReusedAfterCommit() {
    try (Store s = create(tmp.resolve("db"))) {
      long p;
      try (StoreTxn t = s.begin(null)) {
        p = put(t, 1);
        t.commit();
      }
      try (StoreTxn t = s.begin(null)) {
        t.removeTablePage(T, p);
        t.pages(0).free(p);
        assertThat(t.pages(0).allocate(PageType.HEAP).pageNo()).isNotEqualTo(p);
        t.commit();
      }
      assertThat(s.freePages(0)).isEqualTo(1);
      try (StoreTxn t = s.begin(null)) {
        assertThat(t.pages(0).allocate(PageType.HEAP).pageNo()).isEqualTo(p);
        t.commit();
      }
    }
  }

  @Test
  void recoveryReplaysCommitsThatNeverReachedACheckpoint() throws IOException {
    Path dir = tmp.resolve("db");
    long[] pages = new long[20];
    try (Store s = create(dir)) {
      for (int i = 0; i < pages.length; i++) {
        try (StoreTxn t = s.begin(Durability.SYNC)) {
          pages[i] = put(t, 100 + i);
          t.commit();
        }
      }
      assertThat(s.walBytes()).isGreaterThan(WalFormat.HEADER_SIZE);
      CrashCopy.of(dir, tmp.resolve("crash"));
    }
    try (Store s = Store.open(tmp.resolve("crash"), StoreOptions.defaults())) {
      assertThat(s.recovery().transactions()).isEqualTo(20);
      for (int i = 0; i < pages.length; i++) {
        assertThat(valueOf(s, pages[i])).isEqualTo(100 + i);
      }
      assertThat(s.meta().table(T).rows()).isEqualTo(20);
      assertThat(s.walBytes()).isEqualTo(WalFormat.HEADER_SIZE); // recovery checkpointed
    }
  }

  @Test
  void anOlderLogWhoseHeaderWasTornByAResetIsNotReplayed() throws IOException {
    Path dir = tmp.resolve("db");
    long page;
    byte[] olderLog;
    try (Store s = create(dir)) {
      try (StoreTxn t = s.begin(null)) {
        page = put(t, 1);
        t.commit();
      }
      olderLog = Files.readAllBytes(dir.resolve("wal"));
      try (StoreTxn t = s.begin(null)) {
        t.pages(0).write(page).putLong(Page.HEADER_SIZE, 2);
        t.commit();
      }
      s.checkpoint();
    }
    // A crash in the middle of the last reset: the old frames are still there, the header is not.
    java.util.Arrays.fill(olderLog, 0, WalFormat.HEADER_SIZE, (byte) 0);
    Files.write(dir.resolve("wal"), olderLog);
    try (Store s = Store.open(dir, StoreOptions.defaults())) {
      assertThat(s.recovery().transactions()).as("frames of an older log").isZero();
      assertThat(valueOf(s, page)).isEqualTo(2);
    }
  }

  @Test
  void aLogWhoseHeaderIsDamagedStillGivesBackItsCommittedTransactions() throws IOException {
    Path dir = tmp.resolve("db");
    long first;
    long second;
    try (Store s = create(dir)) {
      try (StoreTxn t = s.begin(null)) {
        first = put(t, 1);
        t.commit();
      }
      try (StoreTxn t = s.begin(null)) {
        second = put(t, 2);
        t.commit();
      }
      Path c = CrashCopy.of(dir, tmp.resolve("crash"));
      try (FileChannel ch = FileChannel.open(c.resolve("wal"), StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.allocate(WalFormat.HEADER_SIZE), 0); // bit rot over the whole header
      }
    }
    // The meta names the log's salt, so its frames are still recognised; read-only first (changes
    // nothing), then read-write (checkpoints them home and starts a fresh log).
    try (Store s = Store.open(tmp.resolve("crash"), StoreOptions.defaults().withReadOnly(true))) {
      assertThat(s.recovery().headerValid()).isFalse();
      assertThat(s.recovery().transactions()).isEqualTo(2);
      assertThat(valueOf(s, second)).isEqualTo(2);
    }
    try (Store s = Store.open(tmp.resolve("crash"), StoreOptions.defaults())) {
      assertThat(s.recovery().transactions()).isEqualTo(2);
      assertThat(valueOf(s, first)).isEqualTo(1);
      assertThat(valueOf(s, second)).isEqualTo(2);
      assertThat(s.meta().table(T).rows()).isEqualTo(2);
      assertThat(s.walBytes()).isEqualTo(WalFormat.HEADER_SIZE);
    }
    try (Store s = Store.open(tmp.resolve("crash"), StoreOptions.defaults())) {
      assertThat(s.recovery().headerValid()).isTrue();
      assertThat(valueOf(s, second)).isEqualTo(2);
    }
  }

  @Test
  void tornLogTailIsCutAtTheLastWholeTransaction() throws IOException {
    Path dir = tmp.resolve("db");
    long keep;
    long lost;
    try (Store s = create(dir)) {
      try (StoreTxn t = s.begin(null)) {
        keep = put(t, 1);
        t.commit();
      }
      long afterFirst = s.walBytes();
      try (StoreTxn t = s.begin(null)) {
        lost = put(t, 2);
        t.commit();
      }
      Path c = CrashCopy.of(dir, tmp.resolve("crash"));
      try (FileChannel ch = FileChannel.open(c.resolve("wal"), StandardOpenOption.WRITE)) {
        ch.truncate(afterFirst + (s.walBytes() - afterFirst) / 2);
      }
    }
    try (Store s = Store.open(tmp.resolve("crash"), StoreOptions.defaults())) {
      assertThat(s.recovery().transactions()).isEqualTo(1);
      assertThat(s.recovery().stop()).contains("short");
      assertThat(valueOf(s, keep)).isEqualTo(1);
      assertThat(s.meta().table(T).pages().contains(lost)).isFalse();
      assertThat(s.meta().table(T).rows()).isEqualTo(1);
    }
  }

  @Test
  void aTransactionWhoseFrameFailsItsChecksumIsNotReplayed() throws IOException {
    Path dir = tmp.resolve("db");
    long keep;
    try (Store s = create(dir)) {
      try (StoreTxn t = s.begin(null)) {
        keep = put(t, 1);
        t.commit();
      }
      long second = s.walBytes();
      try (StoreTxn t = s.begin(null)) {
        put(t, 2);
        t.commit();
      }
      Path c = CrashCopy.of(dir, tmp.resolve("crash"));
      // One flipped bit in the second transaction's frame: the whole transaction is one frame
      // under one checksum, so it is a torn tail, dropped whole.
      try (FileChannel ch =
          FileChannel.open(c.resolve("wal"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        ByteBuffer b = ByteBuffer.allocate(1);
        long at = second + WalFormat.FRAME_HEADER + 6;
        ch.read(b, at);
        b.put(0, (byte) (b.get(0) ^ 0x10)).rewind();
        ch.write(b, at);
      }
    }
    try (Store s = Store.open(tmp.resolve("crash"), StoreOptions.defaults())) {
      assertThat(s.recovery().transactions()).isEqualTo(1);
      assertThat(s.recovery().stop()).contains("frame checksum mismatch");
      assertThat(valueOf(s, keep)).isEqualTo(1);
      assertThat(s.meta().table(T).rows()).isEqualTo(1);
    }
  }

  @Test
  void aRecordOnAnotherBaseThanItsPageRefusesTheOpen() throws IOException {
    Path dir = tmp.resolve("db");
    try (Store s = create(dir)) {
      long page;
      try (StoreTxn t = s.begin(null)) {
        page = put(t, 1);
        t.commit();
      }
      long second = s.walBytes();
      try (StoreTxn t = s.begin(null)) {
        t.pages(0).write(page).putLong(Page.HEADER_SIZE, 2);
        t.commit();
      }
      Path c = CrashCopy.of(dir, tmp.resolve("crash"));
      // The second transaction's record of the page (an OPS record: one PUT) says its base is one
      // transaction back; make it two and re-seal the frame: the frame passes, the page it names
      // holds another lsn than the record's base.
      try (FileChannel ch =
          FileChannel.open(c.resolve("wal"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        ByteBuffer h = ByteBuffer.allocate(WalFormat.FRAME_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        ch.read(h, second);
        assertThat(h.get(4)).isEqualTo(WalFormat.KIND_TXN);
        int frame = WalFormat.FRAME_HEADER + h.getInt(24);
        ByteBuffer f = ByteBuffer.allocate(frame).order(ByteOrder.LITTLE_ENDIAN);
        ch.read(f, second);
        int record = WalFormat.FRAME_HEADER + 4 + f.getInt(WalFormat.FRAME_HEADER);
        assertThat(f.get(record)).isEqualTo(RedoRecord.KIND_OPS);
        assertThat(f.get(record + 1)).as("area 0").isZero();
        int delta = record + 2 + RedoRecord.varintBytes(page);
        assertThat(f.get(delta)).as("base one transaction back").isEqualTo((byte) 1);
        f.put(delta, (byte) 2);
        CRC32C crc = new CRC32C();
        crc.update(f.array(), 4, frame - 4);
        f.putInt(0, (int) crc.getValue());
        f.flip();
        ch.write(f, second);
      }
    }
    assertThatThrownBy(() -> Store.open(tmp.resolve("crash"), StoreOptions.defaults()))
        .isInstanceOf(CorruptDatabaseException.class)
        .hasMessageContaining(tmp.resolve("crash").resolve("wal").toString())
        .hasMessageContaining("transaction ")
        .hasMessageContaining("holds lsn");
  }

  @Test
  void bulkPagesAreInvisibleUntilPublishAndLostCleanlyOnCrash() throws IOException {
    Path dir = tmp.resolve("db");
    try (Store s = create(dir)) {
      long first;
      try (BulkWrite bulk = s.beginBulk()) {
        try (BulkWrite.Stream out = bulk.stream(0)) {
          ByteBuffer buf = ByteBuffer.allocateDirect(4096);
          Page p = new Page(net.openhft.chronicle.bytes.BytesStore.wrap(buf), 0, 4096);
          first = -1;
          for (int i = 0; i < 1000; i++) {
            long no = out.allocate();
            first = first < 0 ? no : first;
            p.format(PageType.HEAP, no, 0);
            p.putLong(Page.HEADER_SIZE, i);
            out.write(no, p);
          }
        }
        bulk.meta()
            .table(
                T,
                new dev.idxkit.core.spi.TableState(
                    dev.idxkit.core.spi.PageRuns.EMPTY.addRun(first, 1000), 1000));
        CrashCopy.of(dir, tmp.resolve("before-publish"));
        assertThat(s.meta().table(T).rows()).isZero();
        bulk.publish();
      }
      assertThat(s.meta().table(T).rows()).isEqualTo(1000);
      assertThat(valueOf(s, first + 999)).isEqualTo(999);
      assertThat(s.meta().hwm(0)).isEqualTo(first + 1000);
    }
    try (Store s = Store.open(tmp.resolve("before-publish"), StoreOptions.defaults())) {
      assertThat(s.meta().table(T).rows()).isZero();
      assertThat(s.meta().hwm(0)).isEqualTo(1);
    }
    try (Store s = Store.open(dir, StoreOptions.defaults())) {
      assertThat(valueOf(s, 500)).isEqualTo(499);
    }
  }

  @Test
  void resumePointsCommitWithTheirTransactionAndSurviveRecovery() throws IOException {
    Path dir = tmp.resolve("db");
    try (Store s = create(dir)) {
      try (StoreTxn t = s.begin(null)) {
        put(t, 1);
        t.setResumePoint("load:t", new byte[] {1});
        t.commit();
      }
      try (StoreTxn t = s.begin(null)) {
        t.setResumePoint("load:t", new byte[] {2});
        t.rollback();
      }
      try (StoreTxn t = s.begin(null)) {
        t.setResumePoint("load:u", new byte[] {3});
        t.setResumePoint("load:t", null);
        t.commit();
      }
      CrashCopy.of(dir, tmp.resolve("crash"));
    }
    try (Store s = Store.open(tmp.resolve("crash"), StoreOptions.defaults())) {
      assertThat(s.recovery().transactions()).isEqualTo(2);
      assertThat(s.meta().resumePoint("load:t")).isNull();
      assertThat(s.meta().resumePoint("load:u")).containsExactly(3);
    }
  }

  @Test
  void secondOpenerIsRefused() {
    Path dir = tmp.resolve("db");
    try (Store s = create(dir)) {
      assertThatThrownBy(() -> Store.open(dir, StoreOptions.defaults()))
          .isInstanceOf(DatabaseLockedException.class)
          .hasMessageContaining(dir.toString());
    }
  }

  @Test
  void readersSeeWholeCommitsOnly() throws Exception {
    try (Store s = create(tmp.resolve("db"))) {
      long a;
      long b;
      try (StoreTxn t = s.begin(Durability.OFF)) {
        a = put(t, 0);
        b = put(t, 0);
        t.commit();
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<String> torn = new AtomicReference<>();
      Thread reader =
          new Thread(
              () -> {
                while (!stop.get() && torn.get() == null) {
                  Lock l = s.readLock();
                  l.lock();
                  try {
                    PageAccess pa = s.committedPages(0);
                    long x = pa.read(a).getLong(Page.HEADER_SIZE);
                    long y = pa.read(b).getLong(Page.HEADER_SIZE);
                    if (x != y) {
                      torn.set(x + " != " + y);
                    }
                  } finally {
                    l.unlock();
                  }
                }
              });
      reader.start();
      for (int i = 1; i <= 3000; i++) {
        try (StoreTxn t = s.begin(Durability.OFF)) {
          t.pages(0).write(a).putLong(Page.HEADER_SIZE, i);
          t.pages(0).write(b).putLong(Page.HEADER_SIZE, i);
          t.commit();
        }
        if (i % 1000 == 0) {
          s.checkpoint();
        }
      }
      stop.set(true);
      reader.join();
      assertThat(torn.get()).isNull();
    }
  }

  @Test
  void truncatedAreaFileIsRefusedAtOpen() throws IOException {
    Path dir = tmp.resolve("db");
    try (Store s = create(dir)) {
      try (StoreTxn t = s.begin(null)) {
        for (int i = 0; i < 10; i++) {
          put(t, i);
        }
        t.commit();
      }
    }
    try (RandomAccessFile raf = new RandomAccessFile(dir.resolve("data.area").toFile(), "rw")) {
      raf.setLength(4096 * 5);
    }
    assertThatThrownBy(() -> Store.open(dir, StoreOptions.defaults()))
        .hasMessageContaining("data.area")
        .hasMessageContaining("file has 5 pages but the database uses page 5");
    // The failed open released everything: a second attempt gets the same answer, not a lock error.
    assertThatThrownBy(() -> Store.open(dir, StoreOptions.defaults()))
        .hasMessageContaining("file truncated");
  }

  @Test
  void aLogRestartedAtOpenStillMatchesTheNewestMetaSlot() throws IOException {
    Path dir = tmp.resolve("db");
    try (Store s = create(dir)) {
      try (StoreTxn t = s.begin(null)) {
        put(t, 1);
        t.commit();
      }
    } // close checkpoints: both meta slots valid, the log reset with the newest slot's salt
    try (FileChannel ch = FileChannel.open(dir.resolve("wal"), StandardOpenOption.WRITE)) {
      ch.truncate(0); // a crash inside that reset, after the meta write
    }
    try (Store s = Store.open(dir, StoreOptions.defaults())) {
      assertThat(s.recovery().headerValid()).isFalse();
      assertThat(s.recovery().transactions()).isZero();
    }
    int older;
    try (MetaFile f = MetaFile.open(dir.resolve("meta"), true)) {
      older = 1 - f.currentSlot();
    }
    // The older slot rots (anchor 64 bytes, slots 512 apart): the newest still matches the log.
    try (RandomAccessFile raf = new RandomAccessFile(dir.resolve("meta").toFile(), "rw")) {
      raf.seek(older * 512L);
      raf.write(new byte[64]);
    }
    try (Store s = Store.open(dir, StoreOptions.defaults())) {
      assertThat(s.meta().table(T).rows()).isEqualTo(1);
    }
  }
}
