import dev.idxkit.cli.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
/** LoopA N DIR: N rounds of the primary key rebuild on one thread then two, in one JVM; rounds 3.. profiled (cpu, per thread), each into DIR/rRR-tT.collapsed. */
public class LoopA {
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]); String dir = a[1];
    StringWriter sw = new StringWriter(); PrintWriter out = new PrintWriter(sw);
    PrintWriter err = new PrintWriter(System.err, true);
    InterruptGuard guard = InterruptGuard.detached(err);
    one.profiler.AsyncProfiler ap = one.profiler.AsyncProfiler.getInstance("/tmp/apf/linux-x64/libasyncProfiler.so");
    try (Session s = new Session(guard, false, System.err, StandardCharsets.UTF_8, System::nanoTime, 5000)) {
      for (int j = 0; j < 2 * n; j++) {
        int i = j / 2; String t = j % 2 == 0 ? "1" : "2";
        boolean p = i >= 3; // the JFR run set this false and printed "START j tT <time>" before each round
        if (p) ap.execute("start,event=cpu,interval=1ms,threads");
        String[] args = {"idxbuild", System.getProperty("db", "/tmp/s13/sf05.db"), "--index", System.getProperty("index", "lineitem_pk"), "--memory", System.getProperty("mem", "2g"), "--threads", t, "--scan-threads", t, "-mergethreads", t, "--srt", "/tmp/s13/sf05.srt", "--progress", "none"};
        long t0 = System.nanoTime();
        int rc = Main.run(s, out, err, args);
        long t1 = System.nanoTime();
        if (p) { ap.execute("stop"); ap.execute("collapsed,file=" + dir + String.format("/r%02d-t%s.collapsed", i, t)); }
        StringBuilder ph = new StringBuilder();
        for (String l : sw.toString().split("\n")) if (l.startsWith("  scan ") || l.startsWith("  build ")) ph.append(l.trim().replaceAll(" +", " ").replaceAll("^(\\S+ \\S+ s \\S+ s).*", "$1")).append(" | ");
        sw.getBuffer().setLength(0);
        System.out.printf("ROUND %d t%s rc %d %.3f s  %s%n", i, t, rc, (t1 - t0) / 1e9, ph);
      }
    }
  }
}
