import dev.idxkit.cli.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
/** LoopT T|alt N PROF: N rebuilds (alt: N rounds of one on one thread then one on two) of the primary key alone (-Dtable=NAME: every index of table NAME; the thirteenth pass's six-index loops, -Dtable=lineitem -Ddb=/tmp/s13/sf05.db -Dmem=2g) with T threads (--threads, --scan-threads, -mergethreads) in one JVM through the command line's Main.run, of -Ddb (default /tmp/s13/sf1.db) with --memory -Dmem (default 512m); rounds 2.. profiled with async-profiler (cpu, per thread) into PROF unless it is "-". The eleventh pass's pk/LoopPkR.java with one thread count per JVM. */
public class LoopT {
  public static void main(String[] a) throws Exception {
    String mode = a[0]; int n = Integer.parseInt(a[1]); String prof = a[2];
    StringWriter sw = new StringWriter(); PrintWriter out = new PrintWriter(sw);
    PrintWriter err = new PrintWriter(System.err, true);
    InterruptGuard guard = InterruptGuard.detached(err);
    try (Session s = new Session(guard, false, System.err, StandardCharsets.UTF_8, System::nanoTime, 5000)) {
      boolean alt = mode.equals("alt");
      for (int j = 0; j < (alt ? 2 * n : n); j++) {
        int i = alt ? j / 2 : j; String t = alt ? (j % 2 == 0 ? "1" : "2") : mode;
        boolean p = i >= 2 && !prof.equals("-");
        if (p) one.profiler.AsyncProfiler.getInstance("/tmp/apf/linux-x64/libasyncProfiler.so").execute((j == (alt ? 4 : 2) ? "start" : "resume") + ",event=cpu,interval=1ms,threads");
        String[] args = {"idxbuild", System.getProperty("db", "/tmp/s13/sf1.db"), System.getProperty("table") == null ? "--index" : "--table", System.getProperty("table", "lineitem_pk"), "--memory", System.getProperty("mem", "512m"), "--threads", t, "--scan-threads", t, "-mergethreads", t, "--srt", "/tmp/s13/sf05.srt", "--progress", "none"};
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
