package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Rid;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Entries, seek keys and cursor checks shared by the tests of {@link BufferedCursor} and of the
 * runs of {@link ChangeBuffer}: 16-byte entries (an 8-byte key, an 8-byte rid) from a pool of keys,
 * and walks of a cursor, from the ends and from seek keys, against a {@code TreeSet} model of the
 * entries it must yield.
 */
final class CursorChecks {
  private static final HexFormat HEX = HexFormat.of();
  private static final byte[] ALPHABET = {0, 1, 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};

  private CursorChecks() {}

  // ---- entries and keys ----

  /** 8-byte big-endian key {@code k} followed by rid {@code r}. */
  static byte[] entry(long k, long r) {
    byte[] e = new byte[16];
    Rid.write(k, e, 0);
    Rid.write(r, e, 8);
    return e;
  }

  static String hex(byte[] b) {
    return b == null ? "null" : HEX.formatHex(b);
  }

  /** An empty set of entries in unsigned order. */
  static TreeSet<byte[]> newSet() {
    return new TreeSet<>(EntryGen.UNSIGNED);
  }

  /**
   * 8-byte keys: random ones, ones from a small alphabet (so also 0x00.. and 0xff.. runs that test
   * unsigned order), and groups sharing a 4- or 6-byte prefix.
   */
  static byte[][] keyPool(SplittableRandom rnd, int n) {
    byte[][] keys = new byte[n][];
    byte[][] prefixes = new byte[8][];
    for (int i = 0; i < prefixes.length; i++) {
      prefixes[i] = new byte[4 + 2 * (i % 2)];
      for (int j = 0; j < prefixes[i].length; j++) {
        prefixes[i][j] = (byte) rnd.nextInt(256);
      }
    }
    for (int i = 0; i < n; i++) {
      byte[] k = new byte[8];
      int kind = rnd.nextInt(3);
      int from = 0;
      if (kind == 1) {
        byte[] p = prefixes[rnd.nextInt(prefixes.length)];
        System.arraycopy(p, 0, k, 0, p.length);
        from = p.length;
      }
      for (int j = from; j < 8; j++) {
        k[j] = kind == 2 ? ALPHABET[rnd.nextInt(ALPHABET.length)] : (byte) rnd.nextInt(256);
      }
      keys[i] = k;
    }
    return keys;
  }

  /** A 16-byte entry: a random key of the pool and a random rid. */
  static byte[] randomEntry(SplittableRandom rnd, byte[][] keys) {
    byte[] e = Arrays.copyOf(keys[rnd.nextInt(keys.length)], 16);
    Rid.write(Rid.of(rnd.nextInt(1000), rnd.nextInt(8)), e, 8);
    return e;
  }

  /**
   * A seek key: an entry of the model, an entry it does not hold, a key (8 bytes) or a shorter cut
   * of an entry, one just past a key, random bytes, or the extremes.
   */
  static byte[] probe(
      SplittableRandom rnd, byte[][] keys, NavigableSet<byte[]> model, List<byte[]> absent) {
    byte[] near;
    if (model.isEmpty() || rnd.nextInt(5) == 0) {
      near = randomEntry(rnd, keys);
    } else {
      near = Arrays.copyOf(keys[rnd.nextInt(keys.length)], 16);
      byte[] e = rnd.nextBoolean() ? model.ceiling(near) : model.floor(near);
      near = e != null ? e : model.first();
    }
    return switch (rnd.nextInt(10)) {
      case 0, 1 -> near; // often an exact entry
      case 2 -> absent.isEmpty() ? near : absent.get(rnd.nextInt(absent.size()));
      case 3, 4 -> Arrays.copyOf(near, 8);
      case 5 -> {
        byte[] k = Arrays.copyOf(near, 8);
        k[7]++; // just past the key's entries (or wrapped below them)
        yield k;
      }
      case 6 -> Arrays.copyOf(near, rnd.nextInt(17));
      case 7 -> {
        byte[] k = new byte[1 + rnd.nextInt(16)];
        for (int i = 0; i < k.length; i++) {
          k[i] = (byte) rnd.nextInt(256);
        }
        yield k;
      }
      case 8 -> rnd.nextBoolean() ? new byte[0] : new byte[16];
      default -> {
        byte[] k = new byte[rnd.nextBoolean() ? 8 : 17];
        Arrays.fill(k, (byte) 0xff);
        yield k;
      }
    };
  }

  // ---- checks ----

  /**
   * Full walks from the ends: {@code f} (a forward cursor) from its first entry, {@code r} (a
   * reverse one over the same layers) from its first, the last entry.
   */
  static void assertFullWalks(
      BufferedCursor f, BufferedCursor r, NavigableSet<byte[]> expected, String what) {
    assertThat(f.first()).as(what + ": first").isEqualTo(!expected.isEmpty());
    assertWalk(f, expected, Integer.MAX_VALUE, what + ": forward from first");
    assertThat(r.first()).as(what + ": reverse first").isEqualTo(!expected.isEmpty());
    assertWalk(r, expected.descendingSet(), Integer.MAX_VALUE, what + ": reverse from last");
  }

  /**
   * Seeks {@code f} (a forward cursor) and {@code r} (a reverse one over the same layers) to {@code
   * key}: each lands on the first entry at or after the key (before it, in reverse), or reports
   * none, and then walks {@code limit} entries on as {@link #assertWalk} checks them.
   */
  static void assertSeek(
      BufferedCursor f,
      BufferedCursor r,
      NavigableSet<byte[]> expected,
      byte[] key,
      int limit,
      String what) {
    NavigableSet<byte[]> tail = expected.tailSet(key, true);
    String fw = what + ": forward seek " + hex(key);
    assertThat(f.seek(key)).as(fw).isEqualTo(!tail.isEmpty());
    if (!tail.isEmpty()) {
      assertThat(f.compareTo(key)).as(fw).isGreaterThanOrEqualTo(0);
      assertThat(f.startsWith(key)).as(fw).isEqualTo(EntryGen.startsWith(tail.first(), key));
    }
    assertWalk(f, tail, limit, fw);

    NavigableSet<byte[]> head = expected.headSet(key, false).descendingSet();
    String bw = what + ": reverse seek " + hex(key);
    assertThat(r.seek(key)).as(bw).isEqualTo(!head.isEmpty());
    if (!head.isEmpty()) {
      assertThat(r.compareTo(key)).as(bw).isNegative();
      assertThat(r.startsWith(key)).as(bw).isEqualTo(EntryGen.startsWith(head.first(), key));
    }
    assertWalk(r, head, limit, bw);
  }

  /**
   * The cursor, from where it stands, yields {@code expected} (its first {@code limit} entries; if
   * that is all of them, then it stays off the end), each entry's rid, comparison and prefixes
   * checked on the way.
   */
  static void assertWalk(BufferedCursor c, Iterable<byte[]> expected, int limit, String what) {
    Iterator<byte[]> it = expected.iterator();
    byte[] prev = null;
    for (int step = 0; it.hasNext() && step < limit; step++) {
      byte[] e = it.next();
      // Plain checks in the hot loop: AssertJ's builders cost more than the cursor.
      if (!c.valid() || !Arrays.equals(c.entry(), e)) {
        throw new AssertionError(
            what
                + ": step "
                + step
                + " (after "
                + hex(prev)
                + "): expected "
                + hex(e)
                + ", cursor "
                + (c.valid() ? hex(c.entry()) : "off the end"));
      }
      if (c.rid() != Rid.read(e, e.length - Rid.BYTES)
          || c.compareTo(e) != 0
          || !c.startsWith(Arrays.copyOf(e, Math.min(8, e.length)))
          || !c.startsWith(new byte[0])) {
        throw new AssertionError(what + ": rid, compareTo or startsWith wrong at " + hex(e));
      }
      if (c.startsWith(Arrays.copyOf(e, e.length + 1))) {
        throw new AssertionError(what + ": starts with a prefix longer than " + hex(e));
      }
      prev = e;
      c.next();
    }
    if (!it.hasNext()) {
      if (c.valid()) {
        throw new AssertionError(
            what + ": past the expected last " + hex(prev) + ", cursor on " + hex(c.entry()));
      }
      if (c.next()) {
        throw new AssertionError(what + ": next() true off the end");
      }
    }
  }
}
