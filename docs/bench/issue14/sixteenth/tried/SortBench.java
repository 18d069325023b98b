import dev.idxkit.idxbuild.sort.EntryBuffer;
import java.util.SplittableRandom;
/** SortBench ROUNDS: fills 16 MiB EntryBuffers with lineitem-like scan entries (six layouts) and times sort(); prints per layout the median ns/entry of rounds after the first third. */
public class SortBench {
  public static void main(String[] a) {
    int rounds = Integer.parseInt(a[0]);
    String[] names = {"pk", "partkey", "suppkey", "shipdate", "receiptdate", "part_supp"};
    long[][] ns = new long[names.length][rounds];
    int[] count = new int[names.length];
    for (int r = 0; r < rounds; r++) {
      for (int l = 0; l < names.length; l++) {
        SplittableRandom rnd = new SplittableRandom(r * 31 + l);
        EntryBuffer b = new EntryBuffer(16L << 20);
        byte[] e = new byte[32];
        long order = 1 + r * 100000L; int line = 1;
        for (int j = 0; ; j++) {
          int p = 0;
          e[p++] = 0; e[p++] = (byte) (l + 1);
          switch (l) {
            case 0 -> { e[p++] = 1; p = putLong(e, p, order); e[p++] = 1; p = putInt(e, p, line); if (++line > 1 + (int) (order % 7)) { line = 1; order += 1 + (order % 3); } }
            case 1 -> { e[p++] = 1; p = putInt(e, p, 1 + rnd.nextInt(100000)); }
            case 2 -> { e[p++] = 1; p = putInt(e, p, 1 + rnd.nextInt(5000)); }
            case 3, 4 -> { e[p++] = 1; p = putInt(e, p, 8035 + rnd.nextInt(2526)); }
            default -> { e[p++] = 1; p = putInt(e, p, 1 + rnd.nextInt(100000)); e[p++] = 1; p = putInt(e, p, 1 + rnd.nextInt(5000)); }
          }
          long rid = (long) (1000 + j / 60) << 16 | (j % 60);
          for (int k = 7; k >= 0; k--) e[p + 7 - k] = (byte) (rid >>> (8 * k));
          p += 8;
          if (!b.add(e, 0, p)) break;
        }
        long t0 = System.nanoTime();
        b.sort();
        ns[l][r] = System.nanoTime() - t0;
        count[l] = b.size();
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int l = 0; l < names.length; l++) {
      long[] x = java.util.Arrays.copyOfRange(ns[l], rounds / 3, rounds);
      java.util.Arrays.sort(x);
      sb.append(String.format("%s %.2f/%.2f  ", names[l], x[0] / (double) count[l], x[x.length / 2] / (double) count[l]));
    }
    System.out.println(sb + " ns/entry (median)");
  }
  static int putLong(byte[] e, int p, long v) { v ^= Long.MIN_VALUE; for (int k = 7; k >= 0; k--) e[p++] = (byte) (v >>> (8 * k)); return p; }
  static int putInt(byte[] e, int p, int v) { v ^= Integer.MIN_VALUE; for (int k = 3; k >= 0; k--) e[p++] = (byte) (v >>> (8 * k)); return p; }
}
