package dev.idxkit.corrupt;

import dev.idxkit.core.testing.JavaCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link Victim} JVMs over a job file until every mutation has a result: reads {@code START}
 * and {@code RESULT} lines, and when a victim dies ({@code CRASH}: exit code and the end of its
 * stderr) or takes longer than the timeout over one mutation ({@code HANG}: killed), records that
 * for the mutation in progress and starts a new victim at the next one.
 */
final class VictimProcess {
  private static final String EOF = "\u0000EOF";

  private VictimProcess() {}

  /** Results by mutation id, e.g. {@code "DETECTED at open: CorruptDatabaseException"}. */
  static Map<Integer, String> runAll(Path job, List<Integer> ids, Path work, long timeoutSeconds)
      throws IOException, InterruptedException {
    Map<Integer, String> results = new TreeMap<>();
    int next = 0;
    int victims = 0;
    while (next < ids.size()) {
      Path err = work.resolve("victim-" + (++victims) + ".err");
      Process p =
          new ProcessBuilder(command(job, ids.get(next)))
              .redirectError(err.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
      BlockingQueue<String> lines = new LinkedBlockingQueue<>();
      Thread reader = new Thread(() -> read(p, lines), "victim-stdout-" + victims);
      reader.setDaemon(true);
      reader.start();
      Integer current = null;
      while (true) {
        String l = lines.poll(timeoutSeconds, TimeUnit.SECONDS);
        if (l == null) {
          p.destroyForcibly().waitFor();
          results.put(
              current != null ? current : ids.get(next),
              "HANG: no result after " + timeoutSeconds + " s");
          break;
        }
        if (l.equals(EOF)) {
          int exit = p.waitFor();
          if (current != null) {
            results.put(current, "CRASH: the victim JVM exited with " + exit + ": " + tail(err));
          } else if (exit != 0) {
            throw new AssertionError(
                "victim exited with " + exit + " between mutations: " + tail(err));
          }
          break;
        }
        if (l.startsWith("START ")) {
          current = Integer.valueOf(l.substring(6).trim());
        } else if (l.startsWith("RESULT ")) {
          String[] w = l.split(" ", 3);
          results.put(Integer.valueOf(w[1]), w.length > 2 ? w[2] : "");
          current = null;
        }
      }
      reader.join(TimeUnit.SECONDS.toMillis(10));
      next = 0;
      while (next < ids.size() && results.containsKey(ids.get(next))) {
        next++;
      }
    }
    return results;
  }

  private static void read(Process p, BlockingQueue<String> lines) {
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        lines.add(l);
      }
    } catch (IOException e) {
      lines.add("READ-FAILED " + e);
    } finally {
      lines.add(EOF);
    }
  }

  private static String tail(Path err) {
    try {
      List<String> all = Files.readAllLines(err);
      return String.join(" | ", all.subList(Math.max(0, all.size() - 8), all.size()));
    } catch (IOException e) {
      return "(no stderr: " + e + ")";
    }
  }

  /** This JVM's java, class path and module and system flags; C2 on, since a victim lives long. */
  private static List<String> command(Path job, int first) {
    List<String> cmd = JavaCommand.inheritingFlags();
    cmd.addAll(List.of("-ea", "-Xmx256m", "-XX:+UseSerialGC"));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
    cmd.add(Victim.class.getName());
    cmd.addAll(List.of(job.toString(), Integer.toString(first)));
    return cmd;
  }
}
