import dev.idxkit.core.internal.io.PageFile;
public class PopCheck2 {
  public static void main(String[] a) throws Exception {
    int n = 49000;
    for (int round = 0; round < 6; round++) {
      boolean pop = round % 2 == 0;
      try (PageFile f = PageFile.open(java.nio.file.Path.of(a[0]), 8192, false, true)) {
        f.view(0).getLong(0);
        long t0 = System.nanoTime();
        if (pop) for (long p = 0; p < n; p += 256) f.mapNow(p, 256);
        long t1 = System.nanoTime();
        long s = 0;
        for (long p = 0; p < n; p++) { var pg = f.view(p); s += pg.getLong(0) + pg.getLong(4096); }
        long t2 = System.nanoTime();
        System.out.printf("%s populate %.1f ms, touch %.1f ms, total %.1f ms (%d)%n", pop ? "pop " : "fault", (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t2 - t0) / 1e6, s & 1);
      }
    }
  }
}
