import java.util.concurrent.*;
public class RPar {
  static void radix(long[] a, long[] dst) { long[] src=a; int[] count=new int[256];
    for (int shift=0; shift<64; shift+=8){ java.util.Arrays.fill(count,0); for(long v:src) count[(int)(v>>>shift)&0xFF]++; int sum=0; for(int b=0;b<256;b++){int c=count[b];count[b]=sum;sum+=c;} for(long v:src) dst[count[(int)(v>>>shift)&0xFF]++]=v; long[] t=src;src=dst;dst=t; } }
  public static void main(String[] x) throws Exception {
    int n = 4_000_000; ExecutorService ex = Executors.newFixedThreadPool(2);
    long[][] a = new long[2][n], d = new long[2][n];
    for (int round=0; round<8; round++) for (int t: new int[]{1,2}) {
      for (int i=0;i<t;i++){ java.util.SplittableRandom r=new java.util.SplittableRandom(round*7+i); for(int k=0;k<n;k++) a[i][k]=r.nextLong(); }
      long t0=System.nanoTime(); Future<?>[] f=new Future<?>[t];
      for (int i=0;i<t;i++){ final int ii=i; f[i]=ex.submit(() -> radix(a[ii], d[ii])); }
      for (Future<?> q: f) q.get();
      if (round>=3) System.out.printf("round %d threads %d: %.1f ms (each thread sorts %d longs)%n", round, t, (System.nanoTime()-t0)/1e6, n);
    }
    ex.shutdown();
  }
}
