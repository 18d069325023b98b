package dev.idxkit.idxbuild.sort;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** Entry generators with the shapes that stress a prefix sort, and the unsigned-order model. */
final class TestEntries {
  static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

  private TestEntries() {}

  /** The kinds of entry sets the tests mix. */
  enum Shape {
    /** Random bytes, 0..60 long: prefixes mostly distinct, some entries shorter than 8. */
    RANDOM,
    /** Index-like: 2-byte index id, a few distinct keys, an 8-byte RID: long equal-prefix runs. */
    FEW_KEYS,
    /** Short entries over a 2-letter alphabet incl. 0x00: the zero-padding ambiguity of prefix8. */
    TINY_ZEROS,
    /** A shared 20-byte prefix then random tails: ties resolved past the first 8 bytes. */
    LONG_COMMON_PREFIX,
    /** Copies of a handful of entries, some long. */
    DUPLICATES,
    /** Up to 5 KB: entries beyond a block, with shared prefixes. */
    LONG
  }

  static byte[] next(SplittableRandom rnd, Shape shape) {
    switch (shape) {
      case RANDOM:
        return bytes(rnd, rnd.nextInt(61));
      case FEW_KEYS:
        {
          byte[] e = new byte[2 + 3 + 8];
          e[1] = (byte) rnd.nextInt(2);
          e[2] = 0x41;
          e[3] = (byte) ('A' + rnd.nextInt(3));
          e[4] = 0;
          long rid = rnd.nextLong(1L << 30);
          for (int i = 0; i < 8; i++) {
            e[5 + i] = (byte) (rid >>> (56 - 8 * i));
          }
          return e;
        }
      case TINY_ZEROS:
        {
          byte[] e = new byte[rnd.nextInt(13)];
          for (int i = 0; i < e.length; i++) {
            e[i] = (byte) (rnd.nextInt(4) == 0 ? 1 : 0);
          }
          return e;
        }
      case LONG_COMMON_PREFIX:
        {
          byte[] e = new byte[20 + rnd.nextInt(12)];
          Arrays.fill(e, 0, 20, (byte) 0x7F);
          for (int i = 20; i < e.length; i++) {
            e[i] = (byte) rnd.nextInt(3);
          }
          return e;
        }
      case DUPLICATES:
        {
          int which = rnd.nextInt(5);
          byte[] e = new byte[which == 4 ? 300 : 3 + which];
          Arrays.fill(e, (byte) (which * 17));
          return e;
        }
      case LONG:
        {
          byte[] e = new byte[rnd.nextInt(5000)];
          Arrays.fill(e, 0, Math.min(e.length, 100), (byte) 0x33);
          for (int i = Math.min(e.length, 100); i < e.length; i++) {
            e[i] = (byte) rnd.nextInt(256);
          }
          return e;
        }
      default:
        throw new AssertionError(shape);
    }
  }

  /** {@code n} entries, each of a shape drawn from {@code shapes}. */
  static List<byte[]> entries(SplittableRandom rnd, int n, Shape... shapes) {
    List<byte[]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(next(rnd, shapes[rnd.nextInt(shapes.length)]));
    }
    return out;
  }

  static byte[] bytes(SplittableRandom rnd, int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) rnd.nextInt(256);
    }
    return b;
  }

  static List<byte[]> sorted(List<byte[]> entries) {
    byte[][] a = entries.toArray(new byte[0][]);
    Arrays.sort(a, UNSIGNED);
    return Arrays.asList(a);
  }

  /** Every entry of {@code source}, copied, then closes it. */
  static List<byte[]> drain(EntrySource source) {
    List<byte[]> out = new ArrayList<>();
    try (source) {
      while (source.next()) {
        out.add(
            Arrays.copyOfRange(source.array(), source.offset(), source.offset() + source.length()));
      }
    }
    return out;
  }

  /**
   * Fails at the first difference between {@code actual} and {@code expected}, naming the index and
   * both entries in hex (a whole-list message of a million entries helps nobody).
   */
  static void assertSameEntries(List<byte[]> actual, List<byte[]> expected, String repro) {
    int n = Math.min(actual.size(), expected.size());
    for (int i = 0; i < n; i++) {
      if (!Arrays.equals(actual.get(i), expected.get(i))) {
        throw new AssertionError(
            "entry "
                + i
                + " differs: actual "
                + HexFormat.of().formatHex(actual.get(i))
                + ", expected "
                + HexFormat.of().formatHex(expected.get(i))
                + "; "
                + repro);
      }
    }
    if (actual.size() != expected.size()) {
      throw new AssertionError(
          actual.size() + " entries (expected: " + expected.size() + "); " + repro);
    }
  }

  /** Files left in {@code dir} (not recursive). */
  static List<Path> files(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Builds a sorted buffer holding {@code entries}. */
  static EntryBuffer buffer(List<byte[]> entries) {
    long bytes = 1024;
    for (byte[] e : entries) {
      bytes += e.length + EntryBuffer.INDEX_BYTES_PER_ENTRY;
    }
    EntryBuffer b = new EntryBuffer(bytes);
    for (byte[] e : entries) {
      if (!b.add(e)) {
        throw new AssertionError("buffer sized for the entries refused one");
      }
    }
    b.sort();
    return b;
  }
}
