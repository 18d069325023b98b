package dev.idxkit.idxbuild.sort;
import java.util.*;
public class WB {
  public static void main(String[] x) {
    int parts = 8, per = 375_000; Random rnd = new Random(1);
    List<EntryBuffer> bufs = new ArrayList<>();
    int page = 0;
    // entries: 2-byte id, 4-byte key (17 bits), 8-byte rid; chunks of 256 pages x 60 rows alternate between 2 "threads"
    List<List<byte[]>> th = List.of(new ArrayList<>(), new ArrayList<>());
    for (int c = 0; c < parts * per / (256 * 60); c++) {
      for (int pg = 0; pg < 256; pg++, page++) for (int s = 0; s < 60; s++) {
        byte[] e = new byte[14]; e[1] = 7; int key = rnd.nextInt(100_000);
        e[2]=(byte)(key>>>24); e[3]=(byte)(key>>>16); e[4]=(byte)(key>>>8); e[5]=(byte)key;
        long rid = ((long) page << 16) | s; for (int b = 0; b < 8; b++) e[6+b] = (byte)(rid >>> (56-8*b));
        th.get(c % 2).add(e);
      }
    }
    for (List<byte[]> t : th) {
      EntryBuffer b = null;
      for (byte[] e : t) { if (b == null || b.size() >= per) { if (b != null) { b.packInArrivalOrder(); b.compact(); bufs.add(b);} b = new EntryBuffer(64L<<20); } b.add(e); }
      b.packInArrivalOrder(); b.compact(); bufs.add(b);
    }
    System.out.println(bufs.size() + " buffers");
    GroupSort.Workspace work = new GroupSort.Workspace();
    for (int r = 0; r < 20; r++) {
      long t0 = System.nanoTime();
      PackedMerge.Group g = GroupSort.sort(bufs, Long.MAX_VALUE, work);
      long t1 = System.nanoTime();
      System.out.printf("sort %.1f ms%n", (t1 - t0) / 1e6);
    }
  }
}
