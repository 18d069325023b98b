package dev.idxkit.core.internal.txn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Durability;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.BufferedCursor;
import dev.idxkit.core.internal.btree.TreeCursor;
import dev.idxkit.core.internal.log.WalFormat;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Change buffers and checkpoints beside the commits: such a checkpoint does not merge the buffers
 * into their trees, it writes a snapshot of them at the head of the log segment it switches to, so
 * that the segment it leaves (and with it the commits that buffered those changes) can be emptied.
 *
 * <p>One index in area 0, its 16-byte entries (an 8-byte big-endian key, an 8-byte rid) inserted
 * and deleted through the buffer only; heap pages of the same area, changed by the same
 * transactions, drive the dirty pages past half of {@code dirtyPageBytes}, which starts the
 * checkpoints beside the commits. The change buffer bound is large: nothing merges but what the
 * test (or a checkpoint that holds the writer) asks for.
 *
 * <p>Recovery has two cases: one segment holds frames (the checkpoint beside finished, or none
 * ran): the buffers are kept and recovery's checkpoint runs beside, writing a snapshot again; both
 * segments hold frames (a crash while a checkpoint beside was writing): the buffers are merged and
 * a checkpoint that holds the writer resets the log. Both must give back every committed entry.
 */
class BackgroundCheckpointBuffersTest {
  static final int INDEX = 0;
  static final int AREA = 0;
  static final String NAME = "idx";
  static final long CHANGE_BUFFER_BYTES = 64L << 20;

  @TempDir Path tmp;

  /**
   * The database: heap pages of area 0, each holding a value at its body start, and the entries of
   * one index, all changed through its change buffer. Its methods that buffer changes return it, so
   * that one transaction's changes chain: {@code m.insertSome(t, 9).deleteSome(t, 3)}.
   */
  private static final class Model {
    final int pages;
    final long[] pageNos;
    final long[] values;
    final NavigableSet<byte[]> entries = new TreeSet<>(Arrays::compareUnsigned);
    // Entries deleted and not inserted again: candidates for a new insert of the same bytes.
    final List<byte[]> deleted = new ArrayList<>();
    final SplittableRandom rnd;
    long nextRid = 1;

    Model(int pages, SplittableRandom rnd) {
      this.pages = pages;
      this.pageNos = new long[pages];
      this.values = new long[pages];
      this.rnd = rnd;
    }

    /** The same database, to go on with separately (a crash copy's), with a random of its own. */
    Model copy(SplittableRandom r) {
      Model c = new Model(pages, r);
      System.arraycopy(pageNos, 0, c.pageNos, 0, pages);
      System.arraycopy(values, 0, c.values, 0, pages);
      c.entries.addAll(entries);
      c.deleted.addAll(deleted);
      c.nextRid = nextRid;
      return c;
    }

    /** The index (an empty tree) and the heap pages, then a checkpoint: nothing dirty. */
    void setUp(Store s) {
      try (StoreTxn t = s.begin(Durability.OFF)) {
        long root = BTree.create(t.pages(AREA));
        t.setIndexState(INDEX, new IndexState(root, IndexStatus.ACTIVE));
        for (int i = 0; i < pages; i++) {
          Page p = t.pages(AREA).allocate(PageType.HEAP);
          p.putLong(Page.HEADER_SIZE, 0);
          pageNos[i] = p.pageNo();
        }
        t.commit();
      }
      s.checkpoint();
    }

    /**
     * One transaction: {@code value} into {@code count} pages from {@code first} on, and the index
     * changes {@code changes} buffers.
     */
    void commit(Store s, long value, int first, int count, Consumer<StoreTxn> changes) {
      try (StoreTxn t = s.begin(Durability.OFF)) {
        for (int k = 0; k < count; k++) {
          int i = (first + k) % pages;
          Page p = t.pages(AREA).write(pageNos[i]);
          p.putLong(Page.HEADER_SIZE, value);
          p.putLong(Page.HEADER_SIZE + 8 + (int) (value % 400) * 8, value);
          values[i] = value;
        }
        changes.accept(t);
        t.commit();
      }
    }

    /** Buffers inserts of {@code n} new entries (some keys shared by several rids). */
    Model insertSome(StoreTxn t, int n) {
      for (int k = 0; k < n; k++) {
        long key = rnd.nextInt(4) == 0 ? rnd.nextInt(64) : rnd.nextLong();
        insert(t, entry(key, nextRid++));
      }
      return this;
    }

    /** Buffers deletes of up to {@code n} present entries, chosen at random. */
    Model deleteSome(StoreTxn t, int n) {
      for (int k = 0; k < n && !entries.isEmpty(); k++) {
        byte[] probe = entry(rnd.nextLong(), rnd.nextLong());
        byte[] e = entries.ceiling(probe);
        delete(t, e != null ? e : entries.first());
      }
      return this;
    }

    /** Buffers deletes of up to {@code n} entries of {@code from} still present. */
    Model deleteSomeOf(StoreTxn t, Set<byte[]> from, int n) {
      List<byte[]> present = new ArrayList<>();
      for (byte[] e : from) {
        if (entries.contains(e)) {
          present.add(e);
        }
      }
      Collections.shuffle(present, new Random(rnd.nextLong()));
      for (int k = 0; k < n && k < present.size(); k++) {
        delete(t, present.get(k));
      }
      return this;
    }

    /** Buffers inserts again of up to {@code n} deleted entries (the same bytes). */
    Model reinsertSome(StoreTxn t, int n) {
      for (int k = 0; k < n && !deleted.isEmpty(); k++) {
        int i = rnd.nextInt(deleted.size());
        byte[] e = deleted.get(i);
        deleted.set(i, deleted.get(deleted.size() - 1));
        deleted.remove(deleted.size() - 1);
        insert(t, e);
      }
      return this;
    }

    private void insert(StoreTxn t, byte[] e) {
      assertThat(entries.contains(e)).as("inserting a present entry").isFalse();
      t.buffer(INDEX, AREA, NAME, e, true);
      entries.add(e);
    }

    private void delete(StoreTxn t, byte[] e) {
      assertThat(entries.contains(e)).as("deleting an absent entry").isTrue();
      t.buffer(INDEX, AREA, NAME, e, false);
      entries.remove(e);
      deleted.add(e);
    }

    NavigableSet<byte[]> entriesNow() {
      NavigableSet<byte[]> c = new TreeSet<>(Arrays::compareUnsigned);
      c.addAll(entries);
      return c;
    }

    List<String> expected() {
      List<String> out = new ArrayList<>(entries.size());
      for (byte[] e : entries) {
        out.add(hex(e));
      }
      return out;
    }

    /** Every page's value, and the index's entries read through its buffer, both directions. */
    void assertMatches(Store s, String when) {
      Lock l = s.readLock();
      l.lock();
      try {
        for (int i = 0; i < pages; i++) {
          assertThat(s.committedPages(AREA).read(pageNos[i]).getLong(Page.HEADER_SIZE))
              .as("page %d, %s", pageNos[i], when)
              .isEqualTo(values[i]);
        }
        List<String> want = expected();
        assertThat(readBuffered(s, false))
            .as("entries through the buffer, %s", when)
            .containsExactlyElementsOf(want);
        List<String> reversed = new ArrayList<>(want);
        Collections.reverse(reversed);
        assertThat(readBuffered(s, true))
            .as("entries through the buffer in reverse, %s", when)
            .containsExactlyElementsOf(reversed);
        List<String> problems = new ArrayList<>();
        tree(s).check(problems::add);
        assertThat(problems).as("problems of the tree, %s", when).isEmpty();
      } finally {
        l.unlock();
      }
    }

    /** Nothing buffered, and the tree alone holds every entry. */
    void assertInTreeAlone(Store s, String when) {
      Lock l = s.readLock();
      l.lock();
      try {
        assertThat(s.bufferedChanges()).as("changes buffered, %s", when).isZero();
        List<String> got = new ArrayList<>();
        TreeCursor c = tree(s).cursor();
        for (boolean on = c.first(); on; on = c.next()) {
          got.add(hex(c.entry()));
        }
        assertThat(got)
            .as("entries of the tree alone, %s", when)
            .containsExactlyElementsOf(expected());
      } finally {
        l.unlock();
      }
    }
  }

  /** The index's committed tree; under the read lock. */
  private static BTree tree(Store s) {
    return new BTree(s.committedPages(AREA), s.meta().index(INDEX).root(), NAME);
  }

  /** The committed entries through the committed buffer; under the read lock. */
  private static List<String> readBuffered(Store s, boolean reverse) {
    BufferedCursor c = new BufferedCursor(tree(s), s.committedView().buffered(INDEX), reverse);
    List<String> out = new ArrayList<>();
    for (boolean on = c.first(); on; on = c.next()) {
      out.add(hex(c.entry()));
    }
    return out;
  }

  private static long bufferedChanges(Store s) {
    Lock l = s.readLock();
    l.lock();
    try {
      return s.bufferedChanges();
    } finally {
      l.unlock();
    }
  }

  private static byte[] entry(long key, long rid) {
    return ByteBuffer.allocate(16).putLong(key).putLong(rid).array();
  }

  private static String hex(byte[] e) {
    return HexFormat.of().formatHex(e);
  }

  /**
   * Those of {@link BackgroundCheckpointTest#options}: dirty pages bounded at 1 MiB, 256 pages (a
   * checkpoint beside the commits starts past 128 changed pages, and a commit waits for it only
   * past 256 in both indexes). The change buffers never reach their bound.
   */
  private static StoreOptions options(FileIo io) {
    return BackgroundCheckpointTest.options(io).withChangeBufferBytes(CHANGE_BUFFER_BYTES);
  }

  /**
   * Waits for the checkpoint beside the commits started since {@code before} to finish: first for
   * it to empty the segment it left (a latch of the file seam), then for its stats, which it
   * records right after deleting its double write (a few file operations later).
   */
  private static void awaitCheckpointBeside(Store s, HoldingIo io, CheckpointStats before)
      throws InterruptedException {
    assertThat(io.emptied.tryAcquire(30, TimeUnit.SECONDS))
        .as("the checkpoint beside the commits emptied the segment it left")
        .isTrue();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (s.lastCheckpoint() == before) {
      assertThat(System.nanoTime()).as("the checkpoint recorded its stats").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  private static long size(Path dir, String file) throws IOException {
    return Files.size(dir.resolve(file));
  }

  /**
   * Buffered changes committed before a checkpoint beside the commits live on only in its snapshot
   * once it has emptied the segment they were logged in: a crash copy after it recovers them (the
   * first case, which keeps them buffered), and so does one after a second checkpoint beside, back
   * on the first segment; a close merges them.
   */
  @Test
  void aCheckpointBesideTheCommitsKeepsTheBuffers() throws Exception {
    long seed = Seeds.seed();
    String why = Seeds.reproduce(seed, getClass());
    System.out.println("aCheckpointBesideTheCommitsKeepsTheBuffers: " + why);
    SplittableRandom rnd = Seeds.random(seed);
    HoldingIo io = new HoldingIo();
    Path dir = tmp.resolve("db");
    Model m = new Model(400, rnd.split());
    try (Store s = Store.create(dir, options(io), Map.of(0, "data"), new byte[0]);
        HoldingIo released = io) {
      m.setUp(s);
      // A hundred pages and the entries: under half the bound, no checkpoint yet.
      m.commit(s, 1, 0, 100, t -> m.insertSome(t, 300));
      for (int i = 0; i < 5; i++) {
        m.commit(s, 2 + i, 0, 10, t -> m.insertSome(t, 50).deleteSome(t, 20).reinsertSome(t, 5));
      }
      m.commit(s, 7, 0, 0, t -> m.deleteSome(t, 30));
      assertThat(Files.exists(dir.resolve("wal2"))).as("no checkpoint started, " + why).isFalse();
      m.assertMatches(s, "before the checkpoint, " + why);
      // 140 changed pages: this commit starts a checkpoint beside the commits.
      CheckpointStats before = s.lastCheckpoint();
      m.commit(s, 8, 100, 40, t -> m.insertSome(t, 40));
      awaitCheckpointBeside(s, io, before);
      assertThat(s.lastCheckpoint().pages())
          .as("the checkpoint beside wrote the heap pages, " + why)
          .isEqualTo(140);
      assertThat(size(dir, "wal")).as("the checkpoint emptied the first segment").isZero();
      assertThat(bufferedChanges(s))
          .as("the checkpoint beside left the buffers alone, " + why)
          .isPositive();
      m.assertMatches(s, "after the checkpoint beside, " + why);

      // Into the second segment, after the snapshot: deletes of entries buffered before the
      // switch, inserts, and inserts again of deleted entries.
      for (int i = 0; i < 3; i++) {
        m.commit(
            s, 10 + i, 200, 20, t -> m.deleteSome(t, 60).insertSome(t, 60).reinsertSome(t, 10));
      }
      m.assertMatches(s, "after more commits, " + why);
      Path crash = CrashCopy.of(dir, tmp.resolve("crash"));
      Model atCrash = m.copy(rnd.split());
      assertThat(size(crash, "wal")).as("the first segment is empty").isZero();
      assertThat(size(crash, "wal2"))
          .as("the second segment holds the snapshot and the commits after it")
          .isGreaterThan(WalFormat.HEADER_SIZE);
      assertOpensWithTheBuffers(crash, atCrash, "after one checkpoint beside, " + why);

      // A second checkpoint beside, back to the first segment: 20 + 130 changed pages.
      before = s.lastCheckpoint();
      m.commit(s, 20, 0, 130, t -> m.insertSome(t, 30).deleteSome(t, 30));
      awaitCheckpointBeside(s, io, before);
      assertThat(size(dir, "wal2")).as("the second checkpoint emptied the second segment").isZero();
      assertThat(bufferedChanges(s)).as("still buffered, " + why).isPositive();
      for (int i = 0; i < 3; i++) {
        m.commit(
            s, 21 + i, 300, 20, t -> m.deleteSome(t, 40).insertSome(t, 40).reinsertSome(t, 10));
      }
      m.assertMatches(s, "after the second checkpoint beside, " + why);
      Path crash2 = CrashCopy.of(dir, tmp.resolve("crash2"));
      Model atCrash2 = m.copy(rnd.split());
      assertThat(size(crash2, "wal"))
          .as("the first segment holds the second snapshot and the commits after it")
          .isGreaterThan(WalFormat.HEADER_SIZE);
      assertThat(size(crash2, "wal2")).as("the second segment is empty").isZero();
      assertOpensWithTheBuffers(crash2, atCrash2, "after two checkpoints beside, " + why);

      m.commit(s, 30, 100, 30, t -> m.insertSome(t, 20));
      m.assertMatches(s, "before close, " + why);
    }
    assertReopensAfterClose(dir, m, why);
  }

  /**
   * {@link Store#checkpointKeepingBuffers}, asked for with few pages dirty (no checkpoint beside
   * would start by itself): the heap pages go home, the buffers stay and their snapshot heads the
   * other segment; a crash copy recovers every entry still buffered; without buffers it is a
   * checkpoint that holds the writer.
   */
  @Test
  void aCheckpointKeepingTheBuffersOnRequest() throws Exception {
    long seed = Seeds.seed();
    String why = Seeds.reproduce(seed, getClass());
    System.out.println("aCheckpointKeepingTheBuffersOnRequest: " + why);
    SplittableRandom rnd = Seeds.random(seed);
    Path dir = tmp.resolve("db");
    Model m = new Model(400, rnd.split());
    try (Store s = Store.create(dir, options(FileIo.DEFAULT), Map.of(0, "data"), new byte[0])) {
      m.setUp(s);
      for (int i = 0; i < 4; i++) {
        m.commit(s, 1 + i, i * 10, 10, t -> m.insertSome(t, 200).deleteSome(t, 30));
      }
      long buffered = bufferedChanges(s);
      assertThat(buffered).as("buffered before, " + why).isPositive();
      CheckpointStats before = s.lastCheckpoint();
      s.checkpointKeepingBuffers();
      assertThat(s.lastCheckpoint()).as("a checkpoint ran, " + why).isNotSameAs(before);
      assertThat(s.lastCheckpoint().pages()).as("the heap pages went home, " + why).isEqualTo(40);
      assertThat(bufferedChanges(s)).as("nothing merged, " + why).isEqualTo(buffered);
      assertThat(size(dir, "wal")).as("the segment left behind is empty, " + why).isZero();
      assertThat(size(dir, "wal2"))
          .as("the other segment holds the snapshot, " + why)
          .isGreaterThan(WalFormat.HEADER_SIZE);
      m.assertMatches(s, "after the checkpoint, " + why);
      Path crash = CrashCopy.of(dir, tmp.resolve("crash"));
      assertOpensWithTheBuffers(
          crash, m.copy(rnd.split()), "after a checkpoint on request, " + why);

      s.mergeAllBuffers();
      s.checkpointKeepingBuffers();
      assertThat(bufferedChanges(s)).as("merged, " + why).isZero();
      assertThat(Math.max(sizeOrZero(dir, "wal"), sizeOrZero(dir, "wal2")))
          .as("without buffers the log starts afresh, no frames in either segment, " + why)
          .isLessThanOrEqualTo(WalFormat.HEADER_SIZE);
      m.assertInTreeAlone(s, "merged and checkpointed, " + why);
    }
    assertReopensAfterClose(dir, m, why);
  }

  /**
   * A merge of every buffer whose pages pass an eighth of {@code dirtyPageBytes} writes them home
   * in slices, on checkpoints beside it (each writing what is still buffered at the head of its
   * segment); a crash copy taken after it recovers every entry, in the tree alone.
   */
  @Test
  void aMergeOfEveryBufferCheckpointsBesideItInSlices() throws Exception {
    long seed = Seeds.seed();
    String why = Seeds.reproduce(seed, getClass());
    System.out.println("aMergeOfEveryBufferCheckpointsBesideItInSlices: " + why);
    SplittableRandom rnd = Seeds.random(seed);
    HoldingIo io = new HoldingIo();
    Path dir = tmp.resolve("db");
    Model m = new Model(400, rnd.split());
    try (Store s = Store.create(dir, options(io), Map.of(0, "data"), new byte[0]);
        HoldingIo released = io) {
      m.setUp(s);
      // setUp's 400 new pages started a checkpoint beside its commit.
      int before = io.emptied.availablePermits();
      // 100 heap pages (under the 128 that start a checkpoint beside the commits, over the 32 of a
      // merge's slice) and 3,000 buffered changes (under the bound: nothing merged yet).
      for (int i = 0; i < 10; i++) {
        m.commit(s, 1 + i, i * 10, 10, t -> m.insertSome(t, 300).deleteSome(t, 20));
      }
      assertThat(io.emptied.availablePermits())
          .as("no checkpoint beside the commits, " + why)
          .isEqualTo(before);
      assertThat(bufferedChanges(s)).as("buffered, " + why).isGreaterThan(2500);
      s.mergeAllBuffers();
      assertThat(bufferedChanges(s)).as("merged, " + why).isZero();
      m.assertInTreeAlone(s, "merged, " + why);
      // Past 32 changed pages (an eighth of 256) the merge's first transaction started one.
      assertThat(io.emptied.tryAcquire(before + 1, 30, TimeUnit.SECONDS))
          .as("a checkpoint beside the merge emptied the segment it left, " + why)
          .isTrue();
      Path crash = CrashCopy.of(dir, tmp.resolve("crash"));
      try (Store copy = Store.open(crash, options(FileIo.DEFAULT))) {
        m.assertMatches(copy, "recovered after the merge, " + why);
        m.assertInTreeAlone(copy, "recovered after the merge, " + why);
      }
    }
    assertReopensAfterClose(dir, m, why);
  }

  /**
   * Opens {@code crash} (one segment holds frames) read-only, then read-write: every entry is
   * there, still buffered (recovery's checkpoint ran beside and kept them); a merge then puts them
   * in the tree, and a reopen gives them back again.
   */
  private void assertOpensWithTheBuffers(Path crash, Model m, String when) {
    try (Store copy = Store.open(crash, options(FileIo.DEFAULT).withReadOnly(true))) {
      m.assertMatches(copy, "opened read-only " + when);
      assertThat(bufferedChanges(copy)).as("buffered, read-only " + when).isPositive();
    }
    // The segment that holds the frames: recovery resumes on it, and its checkpoint empties it.
    String held = sizeOrZero(crash, "wal2") > 0 ? "wal2" : "wal";
    try (Store copy = Store.open(crash, options(FileIo.DEFAULT))) {
      m.assertMatches(copy, "recovered " + when);
      assertThat(bufferedChanges(copy))
          .as("recovery's checkpoint beside kept the buffers, " + when)
          .isPositive();
      assertThat(sizeOrZero(crash, held))
          .as("recovery's checkpoint beside emptied the segment it replayed (%s), %s", held, when)
          .isZero();
      m.commit(copy, 1000, 50, 10, t -> m.insertSome(t, 20).deleteSome(t, 20));
      m.assertMatches(copy, "recovered and changed " + when);
      copy.mergeAllBuffers();
      m.assertMatches(copy, "recovered and merged " + when);
      m.assertInTreeAlone(copy, "recovered and merged " + when);
    }
    try (Store copy = Store.open(crash, options(FileIo.DEFAULT))) {
      m.assertMatches(copy, "recovered, merged and reopened " + when);
      m.assertInTreeAlone(copy, "recovered, merged and reopened " + when);
    }
  }

  /**
   * Recovery of {@code crash} (both segments hold frames: a merge logged on the later one, then a
   * checkpoint that holds the writer) killed in that checkpoint's {@code where} (the double write,
   * a home write after the double write is sealed, or the meta write); a copy taken then recovers
   * again (replaying both segments and the merge, installing the double write's images when it is
   * sealed): every entry there, in the tree alone. The first write held is the first of any
   * checkpoint in that recovery: one beside the merge would have switched to the earlier segment,
   * emptying the frames that the merge's pages were replayed from. {@code crash} is left as it was.
   */
  private void assertRecoveryInterruptedInItsCheckpointRecoversAgain(
      Path crash, Model m, String where, String why) throws Exception {
    Path work = CrashCopy.of(crash, tmp.resolve("recovering"));
    HoldingIo io = new HoldingIo();
    io.holdNextWrite(HoldingIo.filesOf(where));
    Thread opener =
        new Thread(
            () -> {
              try (Store s = Store.open(work, options(io))) {
                m.assertMatches(s, "the interrupted recovery, released, " + why);
              }
            },
            "recovery-to-interrupt");
    opener.start();
    try (HoldingIo released = io) {
      assertThat(io.held.await(30, TimeUnit.SECONDS))
          .as("recovery's checkpoint reached " + where + ", " + why)
          .isTrue();
      if (!where.equals("the double write")) {
        assertThat(doubleWrites(work)).as("its double write is sealed, " + why).isNotEmpty();
      }
      Path again = CrashCopy.of(work, tmp.resolve("recovering-crash"));
      io.release();
      opener.join(TimeUnit.SECONDS.toMillis(60));
      try (Store s = Store.open(again, options(FileIo.DEFAULT))) {
        m.assertMatches(s, "recovered after a crash in recovery's checkpoint, " + why);
        m.assertInTreeAlone(s, "recovered after a crash in recovery's checkpoint, " + why);
      }
    }
  }

  /** Reopens {@code dir} after its close (which merges): every entry there, in the tree alone. */
  private static void assertReopensAfterClose(Path dir, Model m, String why) {
    try (Store again = Store.open(dir, options(FileIo.DEFAULT))) {
      m.assertMatches(again, "reopened after close, " + why);
      m.assertInTreeAlone(again, "reopened after close (which merges), " + why);
    }
    assertThat(Files.exists(dir.resolve("wal2"))).as("close leaves one segment").isFalse();
  }

  private static long sizeOrZero(Path dir, String file) {
    try {
      return Files.exists(dir.resolve(file)) ? Files.size(dir.resolve(file)) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A crash while a checkpoint beside the commits is held in one of its writes, with buffered
   * changes in both segments (before the switch, and after the snapshot at the head of the second:
   * deletes of entries buffered before it, inserts, inserts again): recovery replays both, merges
   * the buffers into the tree and resets the log; every entry is there, in the tree alone. A crash
   * of that recovered database after more buffered commits recovers them too; the original goes on
   * and its close merges.
   */
  @ParameterizedTest(name = "held in {0}, {1} entries in the tree")
  @CsvSource({
    "the double write, 400",
    "a home write, 400",
    "the meta write, 400",
    // Recovery's merge changes more leaves than a merge's slice (32 pages): it must still start
    // no checkpoint beside itself (it runs on the later of two segments that hold frames).
    "a home write, 40000"
  })
  void aCrashWhileACheckpointBesideIsHeldRecoversTheBuffers(String where, int treeEntries)
      throws Exception {
    long seed = Seeds.seed();
    String why =
        "held in "
            + where
            + ", "
            + treeEntries
            + " in the tree, "
            + Seeds.reproduce(seed, getClass());
    System.out.println("aCrashWhileACheckpointBesideIsHeldRecoversTheBuffers: " + why);
    SplittableRandom rnd = Seeds.random(seed);
    HoldingIo io = new HoldingIo();
    Path dir = tmp.resolve("db");
    Model m = new Model(400, rnd.split());
    try (Store s = Store.create(dir, options(io), Map.of(0, "data"), new byte[0]);
        HoldingIo released = io) {
      m.setUp(s);
      // Entries in the tree first, so that buffered deletes hide entries of the tree.
      m.commit(s, 1, 0, 0, t -> m.insertSome(t, treeEntries));
      s.mergeAllBuffers();
      s.checkpoint();
      m.assertInTreeAlone(s, "after the first merge, " + why);
      // A hundred pages with buffered changes: under half the bound, no checkpoint yet.
      m.commit(s, 2, 0, 100, t -> m.insertSome(t, 150).deleteSome(t, 80));
      for (int i = 0; i < 5; i++) {
        m.commit(s, 3 + i, 0, 5, t -> m.insertSome(t, 30).deleteSome(t, 30).reinsertSome(t, 10));
      }
      assertThat(Files.exists(dir.resolve("wal2"))).as("no checkpoint started, " + why).isFalse();
      NavigableSet<byte[]> beforeSwitch = m.entriesNow();
      io.holdNextWrite(HoldingIo.filesOf(where));
      // 140 changed pages: this commit starts a checkpoint beside the commits.
      m.commit(s, 10, 100, 40, t -> m.insertSome(t, 20));
      assertThat(io.held.await(30, TimeUnit.SECONDS))
          .as("the checkpoint reached " + where)
          .isTrue();
      // Into the second segment while the checkpoint is held: 80 pages, 220 in both indexes.
      m.commit(s, 11, 200, 40, t -> m.deleteSomeOf(t, beforeSwitch, 120).insertSome(t, 100));
      m.commit(s, 12, 20, 40, t -> m.reinsertSome(t, 40).deleteSome(t, 40).insertSome(t, 40));
      m.commit(s, 13, 0, 0, t -> m.deleteSomeOf(t, beforeSwitch, 30));
      m.assertMatches(s, "while the checkpoint is held, " + why);
      assertThat(bufferedChanges(s)).as("buffered, " + why).isPositive();
      Path crash = CrashCopy.of(dir, tmp.resolve("crash"));
      Model atCrash = m.copy(rnd.split());
      assertThat(sizeOrZero(crash, "wal"))
          .as("the first segment holds the commits before the switch")
          .isGreaterThan(WalFormat.HEADER_SIZE);
      assertThat(sizeOrZero(crash, "wal2"))
          .as("the second segment holds the snapshot and the commits after it")
          .isGreaterThan(WalFormat.HEADER_SIZE);
      io.release();

      // Read-only first: both segments replayed in memory, the buffers with them, nothing written.
      try (Store copy = Store.open(crash, options(FileIo.DEFAULT).withReadOnly(true))) {
        atCrash.assertMatches(copy, "opened read-only, " + why);
        assertThat(bufferedChanges(copy)).as("buffered, read-only, " + why).isPositive();
      }
      assertThat(Files.exists(crash.resolve("wal2"))).as("read-only leaves the segments").isTrue();
      assertRecoveryInterruptedInItsCheckpointRecoversAgain(crash, atCrash, where, why);
      try (Store copy = Store.open(crash, options(FileIo.DEFAULT))) {
        atCrash.assertMatches(copy, "recovered, " + why);
        atCrash.assertInTreeAlone(copy, "recovered (both segments: merged), " + why);
        assertThat(Files.exists(crash.resolve("wal2")))
            .as("recovery's checkpoint reset the log to one segment, " + why)
            .isFalse();
        assertThat(doubleWrites(crash)).as("no double write left, " + why).isEmpty();
        // Buffered commits on the recovered database, then a crash of it.
        for (int i = 0; i < 3; i++) {
          atCrash.commit(
              copy,
              100 + i,
              10 * i,
              30,
              t -> atCrash.insertSome(t, 50).deleteSome(t, 50).reinsertSome(t, 10));
        }
        atCrash.assertMatches(copy, "recovered and changed, " + why);
        assertThat(bufferedChanges(copy)).as("buffered again, " + why).isPositive();
        Path crash2 = CrashCopy.of(crash, tmp.resolve("crash2"));
        try (Store copy2 = Store.open(crash2, options(FileIo.DEFAULT))) {
          atCrash.assertMatches(copy2, "recovered twice, " + why);
        }
      }

      // The original goes on once its checkpoint is released.
      m.commit(s, 20, 300, 60, t -> m.insertSome(t, 50).deleteSome(t, 50));
      m.assertMatches(s, "after the checkpoint went on, " + why);
    }
    assertReopensAfterClose(dir, m, why);
  }

  private static List<Path> doubleWrites(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith("dwb.")).toList();
    }
  }
}
