import dev.idxkit.cli.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
/** LoopPkRev N: N rounds of pk t2 with the key ranges submitted in key order, then in reverse (the system property idxkit.reverse, read per rebuild by the timing build of range-order.diff), rebuilds of /tmp/s13/sf1.db in one JVM. LoopPkR.java (as run, so kept apart) with that loop; the profiler hooks are left in, unused. */
public class LoopPkRev {
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]);
    String prof = a.length > 1 ? a[1] : null;
    StringWriter sw = new StringWriter(); PrintWriter out = new PrintWriter(sw);
    PrintWriter err = new PrintWriter(System.err, true);
    InterruptGuard guard = InterruptGuard.detached(err);
    try (Session s = new Session(guard, false, System.err, StandardCharsets.UTF_8, System::nanoTime, 5000)) {
      for (int i = 0; i < n; i++) {
        for (String tt : new String[] {"2f", "2r"}) {
          String t = tt.substring(0, 1); System.setProperty("idxkit.reverse", String.valueOf(tt.endsWith("r"))); boolean p = false;
          if (p) one.profiler.AsyncProfiler.getInstance("/tmp/apf/linux-x64/libasyncProfiler.so").execute((i == 3 && t.equals("1") ? "start" : "resume") + ",event=cpu,interval=1ms,threads");
          String[] args = {"idxbuild", "/tmp/s13/sf1.db", "--index", "lineitem_pk", "--memory", "512m", "--threads", t, "--scan-threads", t, "-mergethreads", t, "--srt", "/tmp/s13/sf05.srt", "--progress", "none"};
          long t0 = System.nanoTime();
          int rc = Main.run(s, out, err, args);
          long t1 = System.nanoTime();
          if (p) one.profiler.AsyncProfiler.getInstance().execute("stop");
          StringBuilder ph = new StringBuilder();
          for (String l : sw.toString().split("\n")) if (l.startsWith("  scan ") || l.startsWith("  build ")) ph.append(l.trim().replaceAll(" +", " ").replaceAll("^(\\S+ \\S+ s \\S+ s).*", "$1")).append(" | ");
          sw.getBuffer().setLength(0);
          System.err.printf("round %d t%s rc %d %.3f s  %s%n", i, tt, rc, (t1 - t0) / 1e9, ph);
        }
      }
      if (prof != null) one.profiler.AsyncProfiler.getInstance().execute("stop,collapsed,file=" + prof);
    }
  }
}
