package dev.idxkit.core.internal.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.testing.Seeds;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Redo records: random pages through chains of random edits, each version logged as {@link
 * RedoRecord} would be between two checkpoints (a FULL image, then deltas), replayed onto torn and
 * stale pages, replayed twice, and damaged records refused with the page left as it was.
 */
class RedoRecordTest {
  /** One version of a page and the record that produced it. */
  record Logged(long lsn, int pos, Page image) {}

  private final PageDiff diff = new PageDiff();

  /**
   * {@code sealed}: as a format 2 log is replayed (the result copied out, checked with its
   * checksum, copied back); {@code delta}: as format 3 and 4 (ranges checked on the header, applied
   * in place); {@code ops}: each edit recorded as it is made ({@link PageOps}) and logged as an OPS
   * record where the operations fit, as a format 4 commit does.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"sealed", "delta", "ops", "compact delta", "compact ops"})
  void chainsOfRandomEditsReplayToTheNewestImageAndReplayIsIdempotent(String mode) {
    boolean sealed = mode.equals("sealed");
    boolean recordOps = mode.endsWith("ops");
    RedoRecord.Layout layout =
        mode.startsWith("compact") ? RedoRecord.Layout.COMPACT : RedoRecord.Layout.FIXED;
    int opsRecords = 0;
    long seed = Seeds.seed();
    String why = Seeds.reproduce(seed, getClass());
    SplittableRandom r = Seeds.random(seed);
    for (int round = 0; round < 400; round++) {
      int size = RedoPages.SIZES[r.nextInt(RedoPages.SIZES.length)];
      byte[] scratch = new byte[size];
      ByteBuffer log =
          ByteBuffer.allocate(64 * RedoRecord.maxSize(size)).order(ByteOrder.LITTLE_ENDIAN);
      Page v = RedoPages.randomPage(r, size, r.nextLong(1L << 40), 1 + r.nextInt(1000));
      List<Logged> chain = new ArrayList<>();
      int pos = log.position();
      RedoRecord.writeFull(v, log, scratch, layout);
      chain.add(new Logged(v.lsn(), pos, RedoPages.copy(v)));
      for (int k = 1 + r.nextInt(40); k > 0; k--) {
        Page next = RedoPages.copy(v);
        PageOps ops = new PageOps(size);
        if (recordOps) {
          next.recordWrites(ops);
        }
        RedoPages.randomEdits(r, next);
        next.recordWrites(null);
        pos = log.position();
        int n;
        if (recordOps && !ops.overflowed() && ops.count() > 0) {
          n = RedoRecord.writeOps(v, next, ops, log, layout);
          assertThat(RedoRecord.readHeader(log, pos, size, layout, next.lsn()).ops())
              .as(why)
              .isTrue();
          opsRecords++;
        } else {
          n = RedoRecord.write(v, next, diff, log, scratch, layout);
        }
        assertThat(log.position() - pos).as(why).isEqualTo(n);
        RedoRecord.Header h = RedoRecord.readHeader(log, pos, size, layout, next.lsn());
        assertThat(h.size()).as(why).isEqualTo(n);
        assertThat(h.pageNo()).isEqualTo(v.pageNo());
        if (!h.full()) {
          assertThat(h.baseLsn()).as(why).isEqualTo(v.lsn());
          assertThat(n).as(why).isLessThan(RedoRecord.maxSize(size));
        }
        // Round trip of this one record onto the previous image.
        Page applied = RedoPages.copy(v);
        assertThat(RedoReplay.apply(log, pos, applied, next.lsn(), scratch, sealed, layout))
            .isEqualTo(RedoReplay.Outcome.APPLIED);
        assertThat(RedoPages.same(applied, next))
            .as("%s: round %d, record at %d", why, round, pos)
            .isTrue();
        chain.add(new Logged(next.lsn(), pos, RedoPages.copy(next)));
        v = next;
      }
      Page newest = v;

      // Replay onto a torn page: garbage, or half of some other version and half of another.
      Page target = RedoPages.page(size);
      if (r.nextBoolean()) {
        byte[] junk = new byte[size];
        for (int i = 0; i < size; i++) {
          junk[i] = (byte) r.nextInt();
        }
        target.putBytes(0, junk, 0, size);
      } else {
        Page a = chain.get(r.nextInt(chain.size())).image();
        target.copyFrom(a);
        int cut = r.nextInt(size);
        target.copyFrom(chain.get(r.nextInt(chain.size())).image(), cut, cut, size - cut);
      }
      replay(chain, log, target, scratch, sealed, layout);
      assertThat(RedoPages.same(target, newest)).as("%s: round %d, replay", why, round).isTrue();

      // Replayed again: the FULL image puts it back, the deltas apply again: same result.
      replay(chain, log, target, scratch, sealed, layout);
      assertThat(RedoPages.same(target, newest)).as("%s: second replay", why).isTrue();

      // The records after the first onto a page already newer than some of them: deltas the page
      // already holds are skipped; a FULL record (a rewrite) always applies, and the deltas after
      // it apply again on top of it.
      int j = r.nextInt(chain.size());
      Page stale = RedoPages.copy(chain.get(j).image());
      long holds = stale.lsn();
      for (int i = 1; i < chain.size(); i++) {
        Logged l = chain.get(i);
        boolean full = RedoRecord.readHeader(log, l.pos(), size, layout, l.lsn()).full();
        RedoReplay.Outcome o =
            RedoReplay.apply(log, l.pos(), stale, l.lsn(), scratch, sealed, layout);
        assertThat(o)
            .as("%s: record %d on version %d", why, i, j)
            .isEqualTo(
                !full && holds >= l.lsn()
                    ? RedoReplay.Outcome.ALREADY_THERE
                    : RedoReplay.Outcome.APPLIED);
        holds = Math.max(holds, l.lsn());
        if (full) {
          holds = l.lsn();
        }
      }
      assertThat(RedoPages.same(stale, newest)).as("%s: from version %d", why, j).isTrue();
    }
    if (recordOps) {
      assertThat(opsRecords).as("edits small enough to log as operations, " + why).isPositive();
    }
  }

  private static void replay(
      List<Logged> chain,
      ByteBuffer log,
      Page target,
      byte[] scratch,
      boolean sealed,
      RedoRecord.Layout layout) {
    for (Logged l : chain) {
      RedoReplay.apply(log, l.pos(), target, l.lsn(), scratch, sealed, layout);
    }
  }

  @Test
  void aDeltaOnTheWrongBaseIsRefusedAndTheImageIsLeftAlone() {
    SplittableRandom r = new SplittableRandom(11);
    byte[] scratch = new byte[8192];
    ByteBuffer log = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    Page v1 = RedoPages.randomPage(r, 8192, 42, 10);
    Page v2 = RedoPages.copy(v1);
    RedoPages.randomEdits(r, v2);
    Page v3 = RedoPages.copy(v2);
    v3.putLong(4000, 77);
    v3.seal(v2.lsn() + 1);
    RedoRecord.write(v2, v3, diff, log, scratch);
    Page target = RedoPages.copy(v1);
    assertThatThrownBy(() -> RedoReplay.apply(log, 0, target, v3.lsn(), scratch, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "redo record at 0: area 1 page 42 holds lsn 10 (expected: "
                + v2.lsn()
                + ", the image the delta of lsn "
                + v3.lsn()
                + " applies to)");
    assertThat(RedoPages.same(target, v1)).isTrue();

    Page other = RedoPages.randomPage(r, 8192, 43, v2.lsn());
    assertThatThrownBy(() -> RedoReplay.apply(log, 0, other, v3.lsn(), scratch, true))
        .hasMessage(
            "redo record at 0 : a delta of area 1 page 42 (expected: one of area 1 page 43)");
  }

  @Test
  void aSmallChangeIsASmallDeltaAndARewriteIsAFullImage() {
    SplittableRandom r = new SplittableRandom(12);
    byte[] scratch = new byte[8192];
    ByteBuffer log = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    Page v1 = RedoPages.randomPage(r, 8192, 5, 3);
    Page v2 = RedoPages.copy(v1);
    v2.putLong(1000, 0x1234);
    v2.seal(4);
    // The header's first word (checksum) and third (lsn) with the page number word between, and
    // one word of the body.
    assertThat(RedoRecord.write(v1, v2, diff, log, scratch))
        .isEqualTo(RedoRecord.HEADER_SIZE + 4 + 24 + 4 + 8);
    Page v3 = RedoPages.copy(v2);
    byte[] all = new byte[8192 - Page.HEADER_SIZE];
    for (int i = 0; i < all.length; i++) {
      all[i] = (byte) ~v2.getU8(Page.HEADER_SIZE + i);
    }
    v3.putBytes(Page.HEADER_SIZE, all, 0, all.length);
    v3.seal(5);
    int pos = log.position();
    assertThat(RedoRecord.write(v2, v3, diff, log, scratch)).isEqualTo(RedoRecord.maxSize(8192));
    assertThat(RedoRecord.readHeader(log, pos, 8192).full()).isTrue();
  }

  @Test
  void aRecordOfAnUnsealedImageAppliesByItsLsnAndFailsAsAFormat2Record() {
    SplittableRandom r = new SplittableRandom(17);
    byte[] scratch = new byte[8192];
    ByteBuffer log = ByteBuffer.allocate(1 << 15).order(ByteOrder.LITTLE_ENDIAN);
    Page v1 = RedoPages.randomPage(r, 8192, 9, 3);
    Page v2 = RedoPages.copy(v1);
    v2.putLong(2000, 42);
    // What a format 3 commit does: the lsn stamped, the checksum left for the checkpoint.
    v2.setLsn(4);
    RedoRecord.write(v1, v2, diff, log, scratch);
    Page target = RedoPages.copy(v1);
    assertThat(RedoReplay.apply(log, 0, target, 4, scratch, false))
        .isEqualTo(RedoReplay.Outcome.APPLIED);
    assertThat(RedoPages.same(target, v2)).isTrue();
    Page sealedRule = RedoPages.copy(v1);
    assertThatThrownBy(() -> RedoReplay.apply(log, 0, sealedRule, 4, scratch, true))
        .hasMessageContaining("an image with checksum");
    assertThat(RedoPages.same(sealedRule, v1)).as("left alone").isTrue();
    Page wrongLsn = RedoPages.copy(v1);
    assertThatThrownBy(() -> RedoReplay.apply(log, 0, wrongLsn, 5, scratch, false))
        .hasMessageContaining("lsn 4");
    assertThat(RedoPages.same(wrongLsn, v1)).as("left alone").isTrue();
  }

  @Test
  void damagedRecordsAreRefusedNamingTheFieldAndLeaveThePageAlone() {
    SplittableRandom r = new SplittableRandom(13);
    byte[] scratch = new byte[4096];
    Page v1 = RedoPages.randomPage(r, 4096, 9, 20);
    Page v2 = RedoPages.copy(v1);
    v2.putLong(2048, 99);
    v2.putLong(3000, 98);
    v2.seal(21);
    ByteBuffer good = ByteBuffer.allocate(8192).order(ByteOrder.LITTLE_ENDIAN);
    int n = RedoRecord.write(v1, v2, diff, good, scratch);
    good.flip();

    assertRefused(
        good,
        v1,
        b -> b.put(0, (byte) 9),
        "kind 9 (expected: 1 (FULL), 2 (DELTA), 3 (FRESH) or 4 (OPS))");
    assertRefused(good, v1, b -> b.putShort(2, (short) 0), "DELTA record with 0 ranges");
    assertRefused(good, v1, b -> b.limit(n - 1), "body bytes (expected: " + (n - 24) + ")");
    // The last range pushed past the page's end.
    int last = n - 12;
    assertRefused(good, v1, b -> b.putShort(last, (short) 512), "range 2 [4096, 4104)");
    // A flipped byte inside a range: the result does not match its own checksum.
    assertRefused(good, v1, b -> b.put(n - 1, (byte) ~b.get(n - 1)), "an image with checksum");
    // A damaged FULL record.
    ByteBuffer full = ByteBuffer.allocate(8192).order(ByteOrder.LITTLE_ENDIAN);
    RedoRecord.writeFull(v2, full, scratch);
    full.flip();
    full.put(100, (byte) ~full.get(100));
    Page target = RedoPages.copy(v1);
    assertThatThrownBy(() -> RedoReplay.apply(full, 0, target, 21, scratch, true))
        .hasMessageContaining("an image with checksum");
    assertThat(RedoPages.same(target, v1)).isTrue();
    assertThatThrownBy(
            () ->
                RedoRecord.writeFull(
                    v2, ByteBuffer.allocate(100).order(ByteOrder.LITTLE_ENDIAN), scratch))
        .hasMessage("out : 100 bytes free (expected: >= 4120)");
    assertThatThrownBy(() -> RedoRecord.writeFull(v2, ByteBuffer.allocate(8192), scratch))
        .hasMessage("buffer order : BIG_ENDIAN (expected: LITTLE_ENDIAN)");
  }

  @Test
  void damagedOperationRecordsAreRefusedNamingTheOperationAndLeaveThePageAlone() {
    SplittableRandom r = new SplittableRandom(17);
    Page v1 = RedoPages.randomPage(r, 4096, 9, 20);
    Page v2 = RedoPages.copy(v1);
    PageOps ops = new PageOps(4096);
    v2.recordWrites(ops);
    v2.move(100, 104, 200); // [MOVE 100 -> 104, 200]: bytes 0-6
    v2.putInt(100, 7); // [PUT 100, 4]: bytes 7-15
    v2.setLsn(21); // [PUT 16, 8]: bytes 16-28
    v2.recordWrites(null);
    assertThat(ops.count()).isEqualTo(3);
    ByteBuffer good = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    int n = RedoRecord.writeOps(v1, v2, ops, good, RedoRecord.Layout.FIXED);
    good.flip();
    Page applied = RedoPages.copy(v1);
    RedoReplay.apply(good, 0, applied, 21, new byte[4096], false);
    assertThat(RedoPages.same(applied, v2)).isTrue();

    int body = RedoRecord.HEADER_SIZE;
    assertRefusedUnsealed(good, v1, b -> b.put(body, (byte) 7), "operation 0 of kind 7");
    // The move's length pushed past the page's end.
    assertRefusedUnsealed(
        good, v1, b -> b.putShort(body + 5, (short) 4000), "operation 0 (kind 2) outside");
    // A move into the page header: never recorded, so never replayed.
    assertRefusedUnsealed(
        good, v1, b -> b.putShort(body + 3, (short) 8), "operation 0 (kind 2) outside");
    assertRefusedUnsealed(good, v1, b -> b.putShort(2, (short) 4), "operation 3 past the body");
    // The lsn the operations leave is not the transaction's.
    assertRefusedUnsealed(good, v1, b -> b.put(n - 8, (byte) 22), "lsn 22 (expected: area");
    // On the wrong base: the image holds another lsn.
    Page newer = RedoPages.copy(v1);
    newer.setLsn(19);
    assertThatThrownBy(() -> RedoReplay.apply(good, 0, newer, 21, new byte[4096], false))
        .hasMessageContaining("holds lsn 19 (expected: 20");
  }

  private void assertRefusedUnsealed(
      ByteBuffer good, Page base, java.util.function.Consumer<ByteBuffer> damage, String message) {
    ByteBuffer b = ByteBuffer.allocate(good.limit()).order(ByteOrder.LITTLE_ENDIAN);
    b.put(good.duplicate().clear().limit(good.limit()));
    b.flip();
    damage.accept(b);
    Page target = RedoPages.copy(base);
    assertThatThrownBy(() -> RedoReplay.apply(b, 0, target, 21, new byte[4096], false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
    assertThat(RedoPages.same(target, base)).as(message).isTrue();
  }

  private void assertRefused(
      ByteBuffer good, Page base, java.util.function.Consumer<ByteBuffer> damage, String message) {
    ByteBuffer b = ByteBuffer.allocate(good.limit()).order(ByteOrder.LITTLE_ENDIAN);
    b.put(good.duplicate().clear().limit(good.limit()));
    b.flip();
    damage.accept(b);
    Page target = RedoPages.copy(base);
    assertThatThrownBy(() -> RedoReplay.apply(b, 0, target, 21, new byte[4096], true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
    assertThat(RedoPages.same(target, base)).as(message).isTrue();
  }
}
