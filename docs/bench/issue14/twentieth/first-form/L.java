import java.util.*;
public class L {
  // stable LSD on key bits above ridBits, 8 bits per pass
  static void sort(long[] a, long[] b, int n, int ridBits, int keyBits) {
    int passes = (keyBits + 10) / 11; int w = (keyBits + passes - 1) / passes; int m = (1 << w) - 1;
    int[][] cnt = new int[passes][1 << 11];
    for (int i = 0; i < n; i++) { long k = a[i] >>> ridBits; for (int p = 0; p < passes; p++) cnt[p][(int) (k >>> (w * p)) & m]++; }
    long[] src = a, dst = b;
    for (int p = 0; p < passes; p++) {
      int[] c = cnt[p]; int s = 0; for (int d = 0; d <= m; d++) { int t = c[d]; c[d] = s; s += t; }
      int sh = ridBits + w * p;
      for (int i = 0; i < n; i++) { long v = src[i]; dst[c[(int) (v >>> sh) & m]++] = v; }
      long[] t = src; src = dst; dst = t;
    }
    if (src != a) System.arraycopy(src, 0, a, 0, n);
  }
  public static void main(String[] x) {
    int n = 3_000_000; int keyBits = Integer.parseInt(x[0]); int ridBits = 24;
    Random r = new Random(1);
    long[] base = new long[n];
    for (int i = 0; i < n; i++) base[i] = ((long) r.nextInt(1 << keyBits) << ridBits) | i;
    long[] a = new long[n], b = new long[n];
    for (int round = 0; round < 15; round++) {
      System.arraycopy(base, 0, a, 0, n);
      long t0 = System.nanoTime();
      sort(a, b, n, ridBits, keyBits);
      long t1 = System.nanoTime();
      for (int i = 1; i < n; i++) if (a[i-1] > a[i]) throw new Error();
      System.out.printf("%d bits: %.1f ms (%.1f ns/entry)%n", keyBits, (t1-t0)/1e6, (t1-t0)/(double)n);
    }
  }
}
