package dev.idxkit.idxbuild.sort;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link PackedForm.ShortKey}, the merge's loop-free way from a long to its entry, writes byte for
 * byte what {@link PackedEntries.Layout#unpack} writes a byte at a time, for every layout it takes
 * (key bytes after the skipped ones within one, two or three words; none, one or two pieces of runs
 * of varying bytes in each), and nothing before the bytes it leaves out or after the entry's end;
 * it declines the others.
 */
class ShortKeyTest {
  private final long seed = Seeds.seed();
  private final String repro = Seeds.reproduce(seed, getClass());

  @Test
  void writesWhatTheLayoutWritesAndNothingAround() {
    SplittableRandom r = Seeds.random(seed);
    int[] taken = new int[3]; // layouts taken with at most 0, 1, 2 pieces in a word
    int[] words = new int[4]; // layouts taken with 0, 1, 2, 3 words of key bytes after the skip
    for (int round = 0; round < 3_000; round++) {
      PackedEntries.Layout layout = randomLayout(r);
      int len = layout.entryLength();
      int[] at = layout.at();
      int keyLen = layout.template().length;
      int skip = r.nextInt(1 + (at.length == 0 ? keyLen : at[0]));
      PackedForm.ShortKey w = PackedForm.ShortKey.of(layout, skip);
      int[] pieces = pieces(at, keyLen, skip);
      String what = "round " + round + ", " + layout + ", skip " + skip + "; " + repro;
      assertThat(w != null)
          .as(what)
          .isEqualTo(keyLen - skip <= 24 && pieces[0] <= 2 && pieces[1] <= 2 && pieces[2] <= 2);
      if (w == null) {
        continue;
      }
      taken[Math.max(pieces[0], Math.max(pieces[1], pieces[2]))]++;
      words[(keyLen - skip + 7) / 8]++;
      int bits = 8 * at.length + layout.ridBits();
      for (int i = 0; i < 20; i++) {
        long k = bits >= 64 ? r.nextLong() : r.nextLong() & ((1L << bits) - 1);
        byte[] want = new byte[len];
        layout.unpack(k, want, 0);
        int off = r.nextInt(16);
        byte[] out = new byte[off + len - skip + 16];
        Arrays.fill(out, (byte) 0x5A);
        w.unpack(k, out, off - skip);
        assertThat(Arrays.copyOfRange(out, off, off + len - skip))
            .as(what)
            .isEqualTo(Arrays.copyOfRange(want, skip, len));
        for (int b = 0; b < off; b++) {
          assertThat(out[b]).as("byte %d before the entry, %s", b, what).isEqualTo((byte) 0x5A);
        }
        for (int b = off + len - skip; b < out.length; b++) {
          assertThat(out[b]).as("byte %d after the entry, %s", b, what).isEqualTo((byte) 0x5A);
        }
      }
    }
    assertThat(taken).as("layouts with 0, 1 and 2 pieces a word tried; " + repro).doesNotContain(0);
    assertThat(words).as("layouts with 0 to 3 words of key tried; " + repro).doesNotContain(0);
  }

  /** Runs of varying positions in the words at skip, skip + 8, skip + 16, cut at their ends. */
  private static int[] pieces(int[] at, int keyLen, int skip) {
    int[] pieces = new int[3];
    for (int v = 0; v < at.length; v++) {
      int word = (at[v] - skip) / 8;
      boolean starts = v == 0 || at[v] != at[v - 1] + 1 || (at[v] - skip) % 8 == 0;
      if (starts && word < 3) {
        pieces[word]++;
      }
    }
    return pieces;
  }

  /**
   * A layout with a key part of 0 to 30 bytes, up to 6 varying positions (in one run or chosen at
   * random, so in up to 6 runs), and RID bits to fill at most 64 bits.
   */
  private static PackedEntries.Layout randomLayout(SplittableRandom r) {
    int keyLen = r.nextInt(31);
    byte[] template = new byte[keyLen];
    for (int i = 0; i < keyLen; i++) {
      template[i] = (byte) r.nextInt(256);
    }
    int varying = Math.min(keyLen, r.nextInt(7));
    int[] at;
    if (r.nextBoolean() && varying > 0) {
      int first = r.nextInt(keyLen - varying + 1);
      at = new int[varying];
      for (int v = 0; v < varying; v++) {
        at[v] = first + v;
      }
    } else {
      at = r.ints(0, Math.max(1, keyLen)).distinct().limit(varying).sorted().toArray();
    }
    int slotBits = 1 + r.nextInt(16);
    int maxRidBits = 64 - 8 * at.length;
    int ridBits =
        at.length == 0 && r.nextBoolean()
            ? 64
            : slotBits + r.nextInt(Math.max(1, Math.min(maxRidBits, 48) - slotBits + 1));
    return new PackedEntries.Layout(template, at, ridBits, slotBits, r.nextInt(1 << 20));
  }
}
