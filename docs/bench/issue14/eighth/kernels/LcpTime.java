import dev.idxkit.core.internal.btree.Keys;
import java.lang.management.ManagementFactory;
import java.util.*;

/** LcpTime LEN N REPS: CPU ns per Keys.commonPrefix of neighbours in sorted index-like entries (id, key, RID). */
public class LcpTime {
  public static void main(String[] a) {
    int keyLen = Integer.parseInt(a[0]), n = Integer.parseInt(a[1]), reps = Integer.parseInt(a[2]);
    int len = 2 + keyLen + 8;
    SplittableRandom rnd = new SplittableRandom(1);
    long[][] rows = new long[n][];
    for (int i = 0; i < n; i++) rows[i] = new long[] {rnd.nextLong(2500), (long) (1000 + i / 60) << 16 | (i % 60)};
    Arrays.sort(rows, (x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
    byte[] arena = new byte[n * len];
    for (int i = 0; i < n; i++) {
      int o = i * len; arena[o + 1] = 7;
      for (int j = 0; j < keyLen; j++) arena[o + 2 + j] = (byte) (rows[i][0] >>> (8 * (keyLen - 1 - j)));
      for (int j = 0; j < 8; j++) arena[o + 2 + keyLen + j] = (byte) (rows[i][1] >>> (56 - 8 * j));
    }
    var bean = ManagementFactory.getThreadMXBean();
    for (int r = 0; r < reps; r++) {
      long c0 = bean.getCurrentThreadCpuTime(); long sum = 0;
      for (int i = 1; i < n; i++) sum += Keys.commonPrefix(arena, (i - 1) * len, len, arena, i * len, len);
      long c1 = bean.getCurrentThreadCpuTime();
      System.out.printf("%.2f ns (%d) ", (double) (c1 - c0) / n, sum);
    }
    System.out.println();
  }
}
