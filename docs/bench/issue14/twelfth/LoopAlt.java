import dev.idxkit.cli.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
/** LoopAlt X N PROF: as LoopT.java, with one rebuild on one thread then one on two in each of N rounds (X is not used). */
public class LoopAlt {
  public static void main(String[] a) throws Exception {
    String tt = a[0]; int n = Integer.parseInt(a[1]); String prof = a[2];
    StringWriter sw = new StringWriter(); PrintWriter out = new PrintWriter(sw);
    PrintWriter err = new PrintWriter(System.err, true);
    InterruptGuard guard = InterruptGuard.detached(err);
    try (Session s = new Session(guard, false, System.err, StandardCharsets.UTF_8, System::nanoTime, 5000)) {
      for (int j = 0; j < 2 * n; j++) {
        int i = j / 2; String t = (j % 2 == 0) ? "1" : "2";
        boolean p = i >= 2 && !prof.equals("-");
        if (p) one.profiler.AsyncProfiler.getInstance("/tmp/apf/linux-x64/libasyncProfiler.so").execute((j == 4 ? "start" : "resume") + ",event=cpu,interval=1ms,threads");
        String[] args = {"idxbuild", System.getProperty("db", "/tmp/s13/sf1.db"), "--index", "lineitem_pk", "--memory", System.getProperty("mem", "512m"), "--threads", t, "--scan-threads", t, "-mergethreads", t, "--srt", "/tmp/s13/sf05.srt", "--progress", "none"};
        long t0 = System.nanoTime();
        int rc = Main.run(s, out, err, args);
        long t1 = System.nanoTime();
        if (p) one.profiler.AsyncProfiler.getInstance().execute("stop");
        StringBuilder ph = new StringBuilder();
        for (String l : sw.toString().split("\n")) if (l.startsWith("  scan ") || l.startsWith("  build ")) ph.append(l.trim().replaceAll(" +", " ").replaceAll("^(\\S+ \\S+ s \\S+ s).*", "$1")).append(" | ");
        sw.getBuffer().setLength(0);
        System.out.printf("ROUND %d t%s rc %d %.3f s  %s%n", i, t, rc, (t1 - t0) / 1e9, ph);
      }
      if (!prof.equals("-")) one.profiler.AsyncProfiler.getInstance().execute("stop,collapsed,file=" + prof);
    }
  }
}
