import java.util.concurrent.*;
public class Par {
  static long cpu(long n){ long x=1; for(long i=0;i<n;i++){ x = x*6364136223846793005L+1442695040888963407L; x ^= x>>>29;} return x; }
  static long mem(long[] a, long n){ long x=1,s=0; int m=a.length-1; for(long i=0;i<n;i++){ x = x*6364136223846793005L+1442695040888963407L; s+=a[(int)(x>>>33)&m];} return s; }
  static long seq(long[] a, int reps){ long s=0; for(int r=0;r<reps;r++) for(int i=0;i<a.length;i++) s+=a[i]; return s; }
  public static void main(String[] args) throws Exception {
    String kind=args[0]; 
    for (int round=0; round<6; round++) for (int t: new int[]{1,2}) {
      ExecutorService ex=Executors.newFixedThreadPool(t); long t0=System.nanoTime();
      Future<?>[] f=new Future<?>[t];
      for(int i=0;i<t;i++){ f[i]=ex.submit(() -> { long[] a = kind.equals("cpu")? null : new long[kind.equals("mem")? 1<<23 : 1<<24];
        long s = kind.equals("cpu")? cpu(400_000_000L) : kind.equals("mem")? mem(a, 40_000_000L) : seq(a, 20); return s; }); }
      for (Future<?> x: f) x.get(); ex.shutdown();
      System.out.printf("%s round %d threads %d: %.3f s (per-thread work fixed)%n", kind, round, t, (System.nanoTime()-t0)/1e9);
    }
  }
}
