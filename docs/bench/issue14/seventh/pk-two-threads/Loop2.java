import dev.idxkit.cli.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
public class Loop2 {
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]);
    String db = a[1];
    StringWriter sw = new StringWriter(); PrintWriter out = new PrintWriter(sw);
    PrintWriter err = new PrintWriter(System.err, true);
    InterruptGuard guard = InterruptGuard.detached(err);
    try (Session s = new Session(guard, false, System.err, StandardCharsets.UTF_8, System::nanoTime, 5000)) {
      for (int i = 0; i < n; i++) {
        for (int c = 2; c < a.length; c++) {
          String[] t = a[c].split(":"); // threads:scan:merge:index
          String[] args = {"idxbuild", db, "--memory", "512m", "--threads", t[0], "--scan-threads", t[1], "--merge-threads", t[2], "--srt", "/tmp/s13/sf05.srt", "--progress", "none"};
          if (!t[3].equals("all")) { args = java.util.Arrays.copyOf(args, args.length + 2); args[args.length-2] = "--index"; args[args.length-1] = t[3]; }
          else { args = java.util.Arrays.copyOf(args, args.length + 2); args[args.length-2] = "--table"; args[args.length-1] = "lineitem"; }
          long t0 = System.nanoTime();
          int rc = Main.run(s, out, err, args);
          StringBuilder b = new StringBuilder();
          for (String l : sw.toString().split("\n")) if (l.startsWith("  scan") || l.startsWith("  build")) b.append(l.trim().replaceAll(" +", " ")).append(" | ");
          sw.getBuffer().setLength(0);
          System.err.printf("R %d %s rc %d %.3f s | %s%n", i, a[c], rc, (System.nanoTime() - t0) / 1e9, b);
        }
      }
    }
  }
}
