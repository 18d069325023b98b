package dev.idxkit.e2e;

import dev.idxkit.cli.InterruptGuard;
import dev.idxkit.cli.Main;
import dev.idxkit.cli.Session;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Runs many {@code idxkit} command lines in one JVM started from the packaged jar ({@code java -cp
 * cli/target/idxkit.jar:test-classes dev.idxkit.e2e.CliBatch REQUESTS RESULTS DIR...}), so a fuzz
 * campaign pays for one JVM start instead of one per command. Each command goes through {@link
 * Main#run}, the same parsing, commands and failure handling as {@code main}, with its own session
 * and captured streams; only {@code System.exit} is left out.
 *
 * <p>REQUESTS holds one command line per line: the arguments Base64-encoded, separated by tabs,
 * after a first field with their count. RESULTS gets one line per command, written and flushed
 * before the next starts (so a hang shows which command hung): the exit code, stdout and stderr
 * Base64-encoded, and a digest of each watched DIR (CRC32C over every file's relative name and
 * bytes, the {@code lock} file left out, or {@code absent}), tab-separated. Uses only the JDK and
 * idxkit's classes.
 */
public final class CliBatch {
  private CliBatch() {}

  public static void main(String[] args) throws IOException {
    Path requests = Path.of(args[0]);
    Path results = Path.of(args[1]);
    List<Path> watched = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      watched.add(Path.of(args[i]));
    }
    Base64.Decoder dec = Base64.getDecoder();
    Base64.Encoder enc = Base64.getEncoder();
    try (Writer w = Files.newBufferedWriter(results, StandardCharsets.UTF_8)) {
      w.write("digests\t" + digests(watched) + "\n");
      w.flush();
      for (String line : Files.readAllLines(requests, StandardCharsets.UTF_8)) {
        String[] f = line.split("\t", -1);
        int n = Integer.parseInt(f[0]);
        String[] cmd = new String[n];
        for (int i = 0; i < n; i++) {
          cmd[i] = new String(dec.decode(f[i + 1]), StandardCharsets.UTF_8);
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        PrintWriter e = new PrintWriter(err, true);
        int exit;
        try (Session s =
            new Session(
                InterruptGuard.detached(e),
                false,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                StandardCharsets.UTF_8,
                System::nanoTime,
                Session.PLAIN_INTERVAL_MILLIS)) {
          exit = Main.run(s, new PrintWriter(out), e, cmd);
        } catch (Throwable t) {
          // Main.run handles every exception; one escaping it is a finding, reported as exit -1.
          t.printStackTrace(e);
          exit = -1;
        }
        w.write(
            exit
                + "\t"
                + enc.encodeToString(out.toString().getBytes(StandardCharsets.UTF_8))
                + "\t"
                + enc.encodeToString(err.toString().getBytes(StandardCharsets.UTF_8))
                + "\t"
                + digests(watched)
                + "\n");
        w.flush();
      }
    }
  }

  private static String digests(List<Path> dirs) throws IOException {
    List<String> d = new ArrayList<>();
    for (Path dir : dirs) {
      d.add(digest(dir));
    }
    return String.join(",", d);
  }

  private static String digest(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return "absent";
    }
    CRC32C crc = new CRC32C();
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      // The lock file records who holds the database, not what it holds.
      files =
          s.filter(Files::isRegularFile)
              .filter(f -> !f.getFileName().toString().equals("lock"))
              .sorted()
              .toList();
    }
    for (Path f : files) {
      crc.update(dir.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
      crc.update(Files.readAllBytes(f));
    }
    return Long.toHexString(crc.getValue()) + "/" + files.size();
  }
}
