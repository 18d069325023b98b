package dev.idxkit.core.spi;

import dev.idxkit.core.internal.key.KeyLayout;
import dev.idxkit.core.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The key encoding's contract, checked against {@link SqlOrder} on random layouts of 1-4 columns of
 * every type, ASC and DESC, with NULLs and extreme values: byte order equals SQL order for every
 * pair of keys, decoding gives the values back, a prefix encoding starts every key it should and
 * {@link Keys#successor} bounds exactly those keys, and {@link Keys#prefix8} agrees with byte order
 * wherever it differs.
 */
class KeyOrderPropertyTest {
  private static final int LAYOUTS = 300;
  private static final int KEYS_PER_LAYOUT = 120;

  @Test
  void byteOrderIsSqlOrder() {
    long seed = Seeds.seed();
    try {
      SplittableRandom rnd = Seeds.random(seed);
      RandomValues values = new RandomValues(rnd);
      for (int l = 0; l < LAYOUTS; l++) {
        KeyLayout layout = randomLayout(values);
        checkLayout(layout, values);
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(Seeds.reproduce(seed, getClass()) + ": " + e.getMessage(), e);
    }
  }

  private static KeyLayout randomLayout(RandomValues values) {
    SplittableRandom rnd = values.random();
    List<KeyLayout.Column> cols = new ArrayList<>();
    int n = 1 + rnd.nextInt(4);
    for (int i = 0; i < n; i++) {
      cols.add(new KeyLayout.Column(values.type(), rnd.nextBoolean()));
    }
    return KeyLayout.of(cols);
  }

  private static void checkLayout(KeyLayout layout, RandomValues values) {
    KeyEncoder encoder = new KeyEncoder(layout);
    Comparator<Object[]> model = SqlOrder.of(layout);
    double nullChance = values.random().nextDouble() * 0.3;
    Object[][] rows = new Object[KEYS_PER_LAYOUT][];
    byte[][] keys = new byte[KEYS_PER_LAYOUT][];
    for (int r = 0; r < rows.length; r++) {
      rows[r] = new Object[layout.size()];
      for (int c = 0; c < layout.size(); c++) {
        rows[r][c] = values.value(layout.type(c), nullChance);
      }
      keys[r] = encoder.encode(rows[r]);
      Object[] decoded = encoder.decode(keys[r], 0, keys[r].length);
      Object[] expected = Arrays.stream(rows[r]).map(RandomValues::normalized).toArray();
      if (!Arrays.deepEquals(decoded, expected)) {
        throw new AssertionError(
            "decode(encode(" + show(rows[r]) + ")) = " + show(decoded) + " in " + layout);
      }
    }
    for (int a = 0; a < rows.length; a++) {
      for (int b = 0; b < rows.length; b++) {
        int want = Integer.signum(model.compare(rows[a], rows[b]));
        int got = Integer.signum(Keys.compare(keys[a], keys[b]));
        if (want != got) {
          throw new AssertionError(
              String.format(
                  "%s: %s vs %s: SQL order %d, byte order %d (%s vs %s)",
                  layout, show(rows[a]), show(rows[b]), want, got, hex(keys[a]), hex(keys[b])));
        }
        long pa = Keys.prefix8(keys[a], 0, keys[a].length);
        long pb = Keys.prefix8(keys[b], 0, keys[b].length);
        if (pa != pb && Integer.signum(Long.compareUnsigned(pa, pb)) != got) {
          throw new AssertionError(
              String.format(
                  "prefix8 %016x vs %016x disagrees with byte order %d (%s vs %s)",
                  pa, pb, got, hex(keys[a]), hex(keys[b])));
        }
      }
    }
    checkPrefixes(encoder, rows, keys, values.random());
  }

  /** For a leading part of one row: exactly the keys that share it lie in [prefix, successor). */
  private static void checkPrefixes(
      KeyEncoder encoder, Object[][] rows, byte[][] keys, SplittableRandom rnd) {
    KeyLayout layout = encoder.layout();
    for (int t = 0; t < 5; t++) {
      Object[] row = rows[rnd.nextInt(rows.length)];
      int n = rnd.nextInt(layout.size() + 1);
      Object[] lead = Arrays.copyOf(row, n);
      byte[] prefix = encoder.encodePrefix(lead);
      byte[] upper = Keys.successor(prefix);
      for (int r = 0; r < rows.length; r++) {
        boolean shares = true;
        for (int c = 0; c < n; c++) {
          shares &= SqlOrder.compare(layout.type(c), false, rows[r][c], lead[c]) == 0;
        }
        boolean startsWith =
            keys[r].length >= prefix.length
                && Arrays.equals(keys[r], 0, prefix.length, prefix, 0, prefix.length);
        boolean inRange =
            Keys.compare(keys[r], prefix) >= 0
                && (upper == null || Keys.compare(keys[r], upper) < 0);
        if (startsWith != shares || inRange != shares) {
          throw new AssertionError(
              String.format(
                  "%s vs prefix %s in %s: shares %b, starts with %b, in range %b",
                  show(rows[r]), show(lead), layout, shares, startsWith, inRange));
        }
      }
    }
  }

  static String show(Object[] row) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < row.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      Object v = row[i];
      if (v instanceof byte[] b) {
        sb.append("0x").append(hex(b));
      } else if (v instanceof String s) {
        sb.append('"');
        s.codePoints()
            .forEach(
                cp -> {
                  if (cp >= 0x20 && cp < 0x7F) {
                    sb.appendCodePoint(cp);
                  } else {
                    sb.append("\\u{").append(Integer.toHexString(cp)).append('}');
                  }
                });
        sb.append('"');
      } else if (v instanceof Double d) {
        sb.append(d).append("(0x").append(Long.toHexString(Double.doubleToRawLongBits(d)));
        sb.append(')');
      } else {
        sb.append(v);
      }
    }
    return sb.append(']').toString();
  }

  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(String.format("%02x", x & 0xFF));
    }
    return sb.toString();
  }
}
