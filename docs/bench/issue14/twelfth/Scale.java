import java.util.concurrent.*;
public class Scale {
  static long[] big = new long[16<<20]; // 128 MB
  static long compute(long n){ long x=n|1, s=0; for(long i=0;i<200_000_000L;i++){ x^=x<<13; x^=x>>>7; x^=x<<17; s+=x&0xff; } return s; }
  static long random(long seed){ long x=seed|1, s=0; int m=big.length-1; for(int i=0;i<20_000_000;i++){ x^=x<<13; x^=x>>>7; x^=x<<17; s+=big[(int)x&m]; } return s; }
  static long seq(long seed){ long s=seed; for(int r=0;r<8;r++) for(int i=0;i<big.length;i++) s+=big[i]; return s; }
  interface W { long run(long s); }
  static double time(W w, int threads) throws Exception {
    ExecutorService ex = Executors.newFixedThreadPool(threads);
    long t0=System.nanoTime(); Future<?>[] f=new Future<?>[threads];
    for(int i=0;i<threads;i++){ final long s=i+1; f[i]=ex.submit(()->w.run(s)); }
    long sum=0; for(Future<?> x:f) sum+=(Long)x.get();
    ex.shutdown(); if(sum==42) System.out.print("");
    return (System.nanoTime()-t0)/1e9;
  }
  public static void main(String[] a) throws Exception {
    for(int i=0;i<big.length;i++) big[i]=i*0x9E3779B97F4A7C15L;
    String[] names={"compute","random","seq"}; W[] ws={Scale::compute,Scale::random,Scale::seq};
    for(int r=0;r<6;r++) for(int k=0;k<3;k++){ double t1=time(ws[k],1), t2=time(ws[k],2); System.out.printf("%s round %d: 1 thread %.3f s, 2 threads (2x work) %.3f s -> throughput scaling %.2fx%n",names[k],r,t1,t2,2*t1/t2); }
  }
}
