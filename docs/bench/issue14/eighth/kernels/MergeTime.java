package dev.idxkit.idxbuild.sort;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** MergeTime PARTS ENTRIES_PER_PART REPS: CPU ms of PackedMerge over packed buffers of pk-like entries. */
public class MergeTime {
  public static void main(String[] a) {
    int parts = Integer.parseInt(a[0]), per = Integer.parseInt(a[1]), reps = Integer.parseInt(a[2]);
    SplittableRandom rnd = new SplittableRandom(42);
    List<EntryBuffer> bufs = new ArrayList<>();
    long page = 1000;
    for (int p = 0; p < parts; p++) {
      EntryBuffer b = new EntryBuffer(1L << 30);
      byte[] e = new byte[2 + 8 + 4 + 8];
      for (int i = 0; i < per; i++) {
        e[1] = 7;
        long key = rnd.nextLong(6_000_000L);
        for (int j = 0; j < 8; j++) e[2 + j] = (byte) (key >>> (56 - 8 * j));
        int ln = rnd.nextInt(7);
        e[13] = (byte) ln;
        if (i % 60 == 0) page++;
        long rid = page << 16 | (i % 60);
        for (int j = 0; j < 8; j++) e[14 + j] = (byte) (rid >>> (56 - 8 * j));
        if (!b.add(e, 0, e.length)) throw new IllegalStateException("full");
      }
      b.sort();
      b.compact();
      if (!b.isPacked()) throw new IllegalStateException("not packed");
      bufs.add(b);
    }
    PackedMerge.Group g = PackedMerge.unify(bufs);
    if (g == null) throw new IllegalStateException("no common layout");
    var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (int r = 0; r < reps; r++) {
      long c0 = bean.getCurrentThreadCpuTime();
      PackedMerge m = g.merge(null, null);
      long n = 0, sum = 0;
      while (m.next()) { n++; sum += m.array()[13]; }
      long c1 = bean.getCurrentThreadCpuTime();
      System.out.printf("rep %d: %d entries, %.1f ms cpu, %.1f ns/entry (%d)%n", r, n, (c1 - c0) / 1e6, (double) (c1 - c0) / n, sum);
    }
  }
}
