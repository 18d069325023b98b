import java.nio.*; import java.nio.channels.*; import java.nio.file.*;
public class FW {
  static double write(Path f, long bytes, boolean create) throws Exception {
    ByteBuffer b = ByteBuffer.allocateDirect(1 << 20); for (int i = 0; i < b.capacity(); i++) b.put(i, (byte) (i * 31));
    long t0 = System.nanoTime();
    try (FileChannel ch = create ? FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE) : FileChannel.open(f, StandardOpenOption.WRITE)) {
      long at = 0; while (at < bytes) { b.clear(); if (bytes - at < b.capacity()) b.limit((int) (bytes - at)); at += ch.write(b, at); }
      ch.force(false);
    }
    return (System.nanoTime() - t0) / 1e9;
  }
  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]); long bytes = Long.parseLong(a[1]) << 20; int rounds = Integer.parseInt(a[2]);
    Path keep = dir.resolve("keep.out"); Files.deleteIfExists(keep); write(keep, bytes, true);
    for (int r = 0; r < rounds; r++) {
      Path nf = dir.resolve("new-" + r + ".out");
      double n = write(nf, bytes, true); Files.delete(nf);
      double o = write(keep, bytes, false);
      System.out.printf("round %d: new file %.2f s (%.0f MB/s), overwrite %.2f s (%.0f MB/s)%n", r, n, bytes / 1e6 / n, o, bytes / 1e6 / o);
    }
    Files.delete(keep);
  }
}
