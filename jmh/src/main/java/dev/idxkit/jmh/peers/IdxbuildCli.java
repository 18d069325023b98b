package dev.idxkit.jmh.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idxkit.core.IdxkitIOException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code idxkit idxbuild} as a DBA runs it, for the {@code idxbuild} experiment: each run a new JVM
 * ({@code java <cli/target/jvm.args> -jar cli/target/idxkit.jar idxbuild DB ...}), timed from
 * starting the process to its exit, so the figure holds what the in-process rebuild leaves out: JVM
 * start, class loading, the JIT compiling the rebuild's code while it runs, opening the database,
 * and the exit. That is the figure issue 14 compares with PostgreSQL's {@code CREATE INDEX}.
 *
 * <p>The command line comes from the repository the benchmarks jar was built in ({@code
 * -Didxkit.home}, else the jar's own place, {@code <home>/jmh/target/benchmarks.jar}); without a
 * built {@code cli/target/idxkit.jar} the runs are skipped with a note. Each run writes its report
 * with {@code --json}; the run fails unless it exited 0 and the report shows {@code indexes}
 * rebuilt with one entry per row each. The database must be closed while the runs go (the CLI takes
 * its exclusive lock).
 *
 * <p>Class-data sharing: the {@code ./idxkit} launcher makes {@code cli/target/idxkit.jsa} once per
 * jar and JVM build and maps it on every run (see the launcher's header). A run here does the same
 * when that archive is current for this JVM ({@link Archive#of}): newer than the jar, made by this
 * {@code java.home} and {@code java.vm.version}, and passed with the launcher's flags. Otherwise it
 * runs without, and says why. {@code --cli-cds both} alternates runs with and without it (A B A B),
 * so that the two figures come from the same minutes of a noisy machine.
 */
final class IdxbuildCli {
  /**
   * The heap flag the {@code ./idxkit} launcher adds for {@code idxbuild} (its sort memory lives in
   * the heap; see the launcher), so that a run here is the command a user runs. IdxbuildCliTest
   * checks the launcher spells it the same.
   */
  static final String LAUNCHER_HEAP = "-XX:InitialRAMPercentage=8";

  /** Wall seconds of each run, in run order, and the load average after each. */
  record Result(double[] seconds, double[] loads) {
    double median() {
      return IdxbuildCli.median(seconds);
    }

    double min() {
      return IdxbuildCli.min(seconds);
    }

    double max() {
      return IdxbuildCli.max(seconds);
    }
  }

  /** The middle value; for an even count the lower of the two middle ones. */
  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[(s.length - 1) / 2];
  }

  static double min(double[] v) {
    return Arrays.stream(v).min().orElse(Double.NaN);
  }

  static double max(double[] v) {
    return Arrays.stream(v).max().orElse(Double.NaN);
  }

  /**
   * The launcher's class-data archive as a run uses it: {@code file} null means the run goes
   * without one, {@code note} says which archive or why none.
   */
  record Archive(Path file, String note) {
    /**
     * The flags the {@code ./idxkit} launcher passes with its archive: on JDK 25 and newer the file
     * is an ahead-of-time cache (with the training run's method profiles), before that a static CDS
     * archive.
     */
    List<String> flags() {
      return flags(Runtime.version().feature());
    }

    /** {@link #flags()} for a JVM of feature release {@code feature}. */
    List<String> flags(int feature) {
      if (file == null) {
        return List.of();
      }
      return aotCache(feature)
          ? List.of("-XX:AOTCache=" + file, "-Xlog:aot*=off", "-Xlog:cds*=off")
          : List.of("-XX:SharedArchiveFile=" + file, "-Xshare:auto", "-Xlog:cds*=off");
    }

    /** Whether a JVM of feature release {@code feature} gets an ahead-of-time cache. */
    static boolean aotCache(int feature) {
      return feature >= 25;
    }

    /** How a run's line names it: the archive's path, or {@code none}. */
    String label() {
      return file == null ? "none" : "cli/target/idxkit.jsa";
    }

    /** The archive for {@code --cli-cds}: the launcher's ({@link #of}), unless it is off. */
    static Archive forCds(String cliCds, Path home) throws IOException {
      return cliCds.equals("off") ? none("--cli-cds off") : of(home);
    }

    static Archive none(String why) {
      return new Archive(null, "none (" + why + ")");
    }

    /** {@code home}'s archive if the launcher would map it with this JVM, else none and why. */
    static Archive of(Path home) throws IOException {
      Path jar = home.resolve("cli/target/idxkit.jar");
      Path jsa = home.resolve("cli/target/idxkit.jsa");
      Path made = home.resolve("cli/target/idxkit.jsa.jvm");
      if (!Files.isRegularFile(jsa) || !Files.isRegularFile(made)) {
        return none("no cli/target/idxkit.jsa: run ./idxkit once to make it");
      }
      if (Files.getLastModifiedTime(jsa).compareTo(Files.getLastModifiedTime(jar)) <= 0) {
        return none("cli/target/idxkit.jsa is older than the jar: run ./idxkit once to remake it");
      }
      String id =
          "java.home="
              + System.getProperty("java.home")
              + "\njava.vm.version="
              + System.getProperty("java.vm.version");
      if (!Files.readString(made, StandardCharsets.UTF_8).strip().equals(id)) {
        return none("cli/target/idxkit.jsa was made by another JVM than this one");
      }
      return new Archive(
          jsa,
          "cli/target/idxkit.jsa ("
              + (aotCache(Runtime.version().feature())
                  ? "ahead-of-time cache"
                  : "class-data archive")
              + ", as ./idxkit runs)");
    }
  }

  private IdxbuildCli() {}

  /** The repository root holding a built command line, or null if there is none. */
  static Path home() {
    String h = System.getProperty("idxkit.home");
    Path home = h != null ? Path.of(h) : null;
    if (home == null) {
      try {
        Path jar =
            Path.of(IdxbuildCli.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        // <home>/jmh/target/benchmarks.jar
        home = jar.getParent() == null ? null : jar.getParent().getParent().getParent();
      } catch (java.net.URISyntaxException | RuntimeException e) {
        return null;
      }
    }
    if (home == null
        || !Files.isRegularFile(home.resolve("cli/target/idxkit.jar"))
        || !Files.isRegularFile(home.resolve("cli/target/jvm.args"))) {
      return null;
    }
    try {
      // The launcher's own spelling of the jar (a physical path): a class-data archive matches the
      // class path string it was made with.
      return home.toRealPath();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * {@code runs} rebuilds of lineitem's {@code indexes} indexes in {@code db} by the command line
   * for each of {@code archives}, in turn (A B A B ...), each checked to have made {@code rows}
   * entries per index; one result per archive, in the same order.
   */
  static List<Result> run(
      Path home,
      List<Archive> archives,
      Path db,
      Path srt,
      long memory,
      int threads,
      int runs,
      long rows,
      int indexes,
      Path scratch,
      Machine machine,
      PrintStream out)
      throws IOException, InterruptedException {
    List<String> flags =
        List.of(
            Files.readString(home.resolve("cli/target/jvm.args"), StandardCharsets.UTF_8)
                .strip()
                .split("\\s+"));
    double[][] seconds = new double[archives.size()][runs];
    double[][] loads = new double[archives.size()][runs];
    for (int i = 0; i < runs * archives.size(); i++) {
      int r = i / archives.size();
      int a = i % archives.size();
      Archive archive = archives.get(a);
      Path json = scratch.resolve("idxbuild-cli-" + i + ".json");
      Path log = scratch.resolve("idxbuild-cli-" + i + ".log");
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      cmd.addAll(flags);
      cmd.add(LAUNCHER_HEAP);
      cmd.addAll(archive.flags());
      cmd.addAll(
          List.of(
              "-jar",
              home.resolve("cli/target/idxkit.jar").toString(),
              "idxbuild",
              db.toString(),
              "--table",
              Lineitem.TABLE,
              "--memory",
              IdxbuildBench.size(memory),
              "--threads",
              String.valueOf(threads),
              "--srt",
              srt.toString(),
              "--progress",
              "none",
              "--json",
              json.toString()));
      Machine.syncDisks(); // nothing left dirty by what ran before (untimed)
      long t0 = System.nanoTime();
      Process p =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      int code = p.waitFor();
      seconds[a][r] = (System.nanoTime() - t0) / 1e9;
      loads[a][r] = machine.sampleLoad();
      if (code != 0) {
        throw new IllegalStateException(
            "idxkit idxbuild exited " + code + ": " + Files.readString(log).strip());
      }
      check(json, rows, indexes);
      out.printf(
          Locale.ROOT,
          "  idxkit idxbuild (new JVM, %d threads, %s, archive %s) run %d: %.2f s wall, JVM start"
              + " included (load %.2f)%n",
          threads,
          IdxbuildBench.size(memory),
          archive.label(),
          r + 1,
          seconds[a][r],
          loads[a][r]);
    }
    List<Result> results = new ArrayList<>();
    for (int a = 0; a < archives.size(); a++) {
      results.add(new Result(seconds[a], loads[a]));
    }
    return results;
  }

  /** The report must show {@code indexes} lineitem indexes, each with one entry per row. */
  private static void check(Path json, long rows, int indexes) {
    JsonNode report;
    try {
      report = new ObjectMapper().readTree(json.toFile());
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read the rebuild's report " + json, e);
    }
    int seen = 0;
    for (JsonNode ix : report.path("indexes")) {
      if (!ix.path("name").asText().startsWith(Lineitem.TABLE)) {
        continue;
      }
      seen++;
      long entries = ix.path("entries").asLong(-1);
      if (entries != rows) {
        throw new IllegalStateException(
            json
                + ": "
                + ix.path("name").asText()
                + " has "
                + entries
                + " entries (expected: "
                + rows
                + ", one per row)");
      }
    }
    if (seen != indexes) {
      throw new IllegalStateException(
          json + ": " + seen + " lineitem indexes rebuilt (expected: " + indexes + ")");
    }
  }
}
