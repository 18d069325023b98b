import dev.idxkit.cli.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
public class Loop {
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]);
    String[] rest = java.util.Arrays.copyOfRange(a, 1, a.length);
    StringWriter sw = new StringWriter(); PrintWriter out = new PrintWriter(sw);
    PrintWriter err = new PrintWriter(System.err, true);
    InterruptGuard guard = InterruptGuard.detached(err);
    String prof0 = System.getProperty("prof");
    try (Session s = new Session(guard, false, System.err, StandardCharsets.UTF_8, System::nanoTime, 5000)) {
      String prof = System.getProperty("prof");
      for (int i = 0; i < n; i++) {
        if (prof != null && i == 5) one.profiler.AsyncProfiler.getInstance("/tmp/apf/linux-x64/libasyncProfiler.so").execute("start,event=cpu,interval=1ms,threads,lines");

        for (String t : rest[0].split(",")) {
          String[] args = {"idxbuild", "/tmp/s13/sf1.db", "--index", "lineitem_pk", "--memory", "512m", "--threads", t, "--scan-threads", t, "--merge-threads", t, "--srt", "/tmp/s13/sf05.srt", "--progress", "none", "--inactive"};
          args = new String[] {"idxbuild", "/tmp/s13/sf1.db", "--index", "lineitem_pk", "--memory", "512m", "--threads", t, "--scan-threads", t, "--merge-threads", t, "--srt", "/tmp/s13/sf05.srt", "--progress", "none"};
          long t0 = System.nanoTime();
          int rc = Main.run(s, out, err, args);
          for (String l : sw.toString().split("\n")) if (l.contains(" s ") && (l.startsWith("  scan") || l.startsWith("  build") || l.startsWith("  publish") || l.startsWith("rebuilt"))) System.err.println(l); sw.getBuffer().setLength(0);
          System.err.printf("round %d threads %s rc %d %.3f s%n", i, t, rc, (System.nanoTime() - t0) / 1e9);
        }
      }
      if (prof != null) one.profiler.AsyncProfiler.getInstance().execute("stop,collapsed,file=" + prof);
    }
  }
}
