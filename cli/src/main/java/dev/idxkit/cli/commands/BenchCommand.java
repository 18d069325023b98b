package dev.idxkit.cli.commands;

import dev.idxkit.cli.CommandInterruptedException;
import dev.idxkit.cli.CommonOptions;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.PathChecks;
import dev.idxkit.cli.Session;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.InvalidInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code idxkit bench EXPERIMENT [ARGS...]}: runs a whole-system experiment from the benchmarks jar
 * in a child JVM.
 *
 * <p>Why a child: the experiments and the stores they compare against (SQLite, RocksDB, ...) live
 * in {@code jmh/} only, and nothing may depend on {@code cli}, so the CLI cannot call them; it runs
 * {@code java <flags> -cp jmh/target/benchmarks.jar <main class> ARGS...} instead.
 *
 * <p>A run:
 *
 * <ol>
 *   <li>EXPERIMENT is looked up in {@link #EXPERIMENTS}, read from {@code experiments.txt}: the
 *       file {@code dev.idxkit.jmh.Experiments} reads in the jar, copied here by the build, so the
 *       help lists the experiments without the jar.
 *   <li>The repository root comes from the {@code idxkit.home} system property that the {@code
 *       ./idxkit} launcher passes. If {@code jmh/target/benchmarks.jar} is missing or older than
 *       any source or pom of the modules it contains, it is built first with {@code ./mvnw -B -q
 *       -pl jmh -am package -DskipTests -Dspotless.check.skip=true} (a few minutes; {@code
 *       --no-build} runs the jar as it is).
 *   <li>The child gets the JVM flags the build wrote to {@code cli/target/jvm.args} (the Chronicle
 *       Bytes flags), runs in the current directory (so {@code --out} defaults land there), and
 *       everything after EXPERIMENT is passed to it untouched, {@code --help} included.
 *   <li>Its stdout and stderr stream through line by line as they come (threads {@code
 *       idxkit-bench-stdout} and {@code -stderr}); its exit code becomes this command's.
 *   <li>Ctrl-C: a terminal sends SIGINT to the child as well; either way this command stops the
 *       child (SIGTERM, then SIGKILL after {@link #STOP_GRACE_SECONDS} s), waits for it, and exits
 *       130.
 * </ol>
 *
 * <p>Memory and disk: none of its own beyond the child's; the experiments document theirs.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Run a whole-system experiment; write its figures as CSV, JSON and PNG charts.",
      "",
      "Files go under ./bench-results/EXPERIMENT by default. The experiment runs in its"
          + " own JVM from jmh/target/benchmarks.jar, built first if missing or out of date."
          + " Options after EXPERIMENT are the experiment's: 'idxkit bench io --help'."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit bench io 1g",
      "  idxkit bench growth --runs 14 --per-run 305000",
      "  idxkit bench accounting --objects 5200000 --out /tmp/acct"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      "0:the experiment finished",
      "1:the experiment failed, or the benchmarks jar could not be built",
      "2:bad usage (unknown experiment or option, no idxkit.home)",
      "130:interrupted by Ctrl-C; the experiment was stopped"
    })
public final class BenchCommand implements Callable<Integer> {
  /** One experiment: the name the user types, its main class in the jar, one line for the help. */
  record Experiment(String name, String mainClass, String description) {}

  /**
   * The list of experiments, in help order: the file {@code
   * jmh/src/main/resources/dev/idxkit/jmh/experiments.txt}, which {@code
   * dev.idxkit.jmh.Experiments} reads in the benchmarks jar and this module's build copies beside
   * this class.
   */
  static final String EXPERIMENTS_RESOURCE = "experiments.txt";

  /** Every experiment, in help order, by name. */
  static final Map<String, Experiment> EXPERIMENTS = readExperiments();

  /** Seconds a stopped child gets to exit after SIGTERM before it is killed. */
  static final long STOP_GRACE_SECONDS = 10;

  static final String JAR = "jmh/target/benchmarks.jar";
  static final String JVM_ARGS = "cli/target/jvm.args";

  /** The modules shaded into the benchmarks jar: a newer file under these makes it stale. */
  static final List<String> JAR_MODULES = List.of("core", "idxbuild", "loader", "jmh");

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "EXPERIMENT",
      description = "One of the experiments listed below.")
  String experiment;

  @Parameters(
      index = "1..*",
      paramLabel = "ARGS",
      description =
          "The experiment's own arguments and options (see 'idxkit bench EXPERIMENT --help').")
  List<String> args = new ArrayList<>();

  @Option(
      names = "--no-build",
      description = "Run jmh/target/benchmarks.jar as it is, even if older than the sources.")
  boolean noBuild;

  @Option(
      names = "--heap",
      paramLabel = "SIZE",
      description =
          "Java heap of the experiment's JVM, as -Xmx takes it (e.g. 4g). Default: the JVM's"
              + " (a quarter of RAM); idxbuild and load want 4g at their largest --memory.")
  String heap;

  @Mixin CommonOptions common;

  private CommandSpec spec;
  private final Session session;

  BenchCommand(Session session) {
    this.session = session;
  }

  /**
   * Picocli injects the spec here before parsing: everything after EXPERIMENT is the experiment's
   * (so {@code idxkit bench io --help} asks the experiment), and the help lists the experiments.
   */
  @Spec
  void spec(CommandSpec spec) {
    this.spec = spec;
    spec.parser().stopAtPositional(true);
    List<String> lines = new ArrayList<>();
    lines.add("");
    lines.add("Experiments:");
    for (Experiment e : EXPERIMENTS.values()) {
      lines.addAll(helpLines(e));
    }
    lines.addAll(Arrays.asList(spec.usageMessage().footer()));
    spec.usageMessage().footer(lines.toArray(new String[0]));
  }

  @Override
  public Integer call() throws InterruptedException {
    if (experiment == null) {
      throw new ParameterException(
          spec.commandLine(), "no experiment given (expected one of: " + names() + ")");
    }
    Experiment e = EXPERIMENTS.get(experiment);
    if (e == null) {
      throw new ParameterException(
          spec.commandLine(),
          "unknown experiment '" + experiment + "' (expected one of: " + names() + ")");
    }
    checkOutArgument(args);
    Path home = home();
    Path jar = home.resolve(JAR);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // Not "read-only": the hook must wait until the child is gone rather than exit before it.
    session
        .guard()
        .state(
            "experiment "
                + e.name()
                + " stopped; no database of yours was touched, its output"
                + " files may be incomplete",
            false);
    if (!noBuild) {
      Optional<String> why = staleness(home, jar);
      if (why.isPresent()) {
        err.println("idxkit: building " + JAR + " (" + why.get() + "); this takes a few minutes");
        err.flush();
        int code = run(buildCommand(home), home, err, err); // build chatter is not results
        if (code != 0) {
          throw new IdxkitException(
              "building "
                  + JAR
                  + " failed (exit "
                  + code
                  + "); run ./mvnw -B -pl jmh -am package -DskipTests in "
                  + home
                  + " to see why");
        }
      }
    }
    if (!Files.isRegularFile(jar)) {
      throw new InvalidInputException(
          "no " + jar + " (run without --no-build, or ./mvnw -B -pl jmh -am package -DskipTests)");
    }
    checkClassInJar(jar, e);
    List<String> flags = new ArrayList<>(jvmFlags(home));
    if (heap != null) {
      if (!heap.matches("[0-9]+[kKmMgG]?")) {
        throw new ParameterException(
            spec.commandLine(), "--heap " + heap + ": expected a size such as 512m or 4g");
      }
      flags.add("-Xmx" + heap);
    }
    List<String> command = childCommand(javaExecutable(), flags, jar, e.mainClass(), args);
    return run(command, Path.of("").toAbsolutePath(), out, err);
  }

  /** The experiment's {@code --out DIR}, checked here before the child JVM starts any work. */
  static void checkOutArgument(List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--out") && i + 1 < args.size()) {
        PathChecks.outputDirectory(Path.of(args.get(i + 1)), "--out");
      } else if (a.startsWith("--out=")) {
        PathChecks.outputDirectory(Path.of(a.substring("--out=".length())), "--out");
      }
    }
  }

  /** Help width: picocli's default when the terminal's is unknown. */
  static final int HELP_WIDTH = 80;

  /** An experiment's help entry, its description wrapped at word boundaries to the help width. */
  static List<String> helpLines(Experiment e) {
    String indent = " ".repeat(14);
    List<String> out = new ArrayList<>();
    StringBuilder line = new StringBuilder(String.format("  %-11s ", e.name()));
    for (String word : e.description().split(" ")) {
      if (line.length() > indent.length() && line.length() + 1 + word.length() > HELP_WIDTH) {
        out.add(line.toString().stripTrailing());
        line = new StringBuilder(indent);
      }
      if (line.length() > indent.length()) {
        line.append(' ');
      }
      line.append(word);
    }
    out.add(line.toString());
    return out;
  }

  static String names() {
    return String.join(", ", EXPERIMENTS.keySet());
  }

  private static Path home() {
    String h = System.getProperty("idxkit.home");
    if (h == null || h.isBlank()) {
      throw new InvalidInputException(
          "idxkit bench needs the idxkit source tree: run it through the ./idxkit launcher, which"
              + " passes -Didxkit.home=<repository root>");
    }
    Path home = Path.of(h).toAbsolutePath().normalize();
    if (!Files.isRegularFile(home.resolve("mvnw")) || !Files.isDirectory(home.resolve("jmh"))) {
      throw new InvalidInputException(
          "idxkit.home : " + home + " (expected: the idxkit repository root, with mvnw and jmh/)");
    }
    return home;
  }

  /** {@code java <flags> -cp JAR MAIN ARGS...}. */
  static List<String> childCommand(
      Path java, List<String> flags, Path jar, String mainClass, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java.toString());
    cmd.addAll(flags);
    cmd.add("-cp");
    cmd.add(jar.toString());
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }

  static List<String> buildCommand(Path home) {
    return List.of(
        home.resolve("mvnw").toString(),
        "-B",
        "-q",
        "-pl",
        "jmh",
        "-am",
        "package",
        "-DskipTests",
        "-Dspotless.check.skip=true");
  }

  static Path javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** The flags in {@code cli/target/jvm.args} (written by the build, read by the launcher too). */
  static List<String> jvmFlags(Path home) {
    Path f = home.resolve(JVM_ARGS);
    try {
      String text = Files.readString(f).strip();
      return text.isEmpty() ? List.of() : List.of(text.split("\\s+"));
    } catch (IOException e) {
      throw new InvalidInputException(
          "cannot read " + f + " (the ./idxkit launcher builds it: run idxkit through it)", e);
    }
  }

  /**
   * Why the jar must be built, or empty if it is up to date: missing, or older than a file under
   * {@code src/main} or a {@code pom.xml} of the modules it holds (or the parent pom).
   */
  static Optional<String> staleness(Path home, Path jar) {
    if (!Files.isRegularFile(jar)) {
      return Optional.of("missing");
    }
    try {
      FileTime built = Files.getLastModifiedTime(jar);
      List<Path> roots = new ArrayList<>();
      roots.add(home.resolve("pom.xml"));
      for (String m : JAR_MODULES) {
        roots.add(home.resolve(m).resolve("pom.xml"));
        roots.add(home.resolve(m).resolve("src/main"));
      }
      for (Path root : roots) {
        if (!Files.exists(root)) {
          continue;
        }
        try (Stream<Path> walk = Files.walk(root)) {
          Optional<Path> newer =
              walk.filter(Files::isRegularFile)
                  .filter(p -> modified(p).compareTo(built) > 0)
                  .findFirst();
          if (newer.isPresent()) {
            return Optional.of("older than " + home.relativize(newer.get()));
          }
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check whether " + jar + " is up to date", e);
    }
  }

  private static FileTime modified(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A clear error, rather than the JVM's "could not find main class", for a jar that lacks it. */
  static void checkClassInJar(Path jar, Experiment e) {
    String entry = e.mainClass().replace('.', '/') + ".class";
    try (ZipFile z = new ZipFile(jar.toFile())) {
      if (z.getEntry(entry) == null) {
        throw new IdxkitException(
            jar
                + " has no "
                + e.mainClass()
                + " for experiment "
                + e.name()
                + "; rebuild it (./mvnw -B -pl jmh -am package -DskipTests)");
      }
    } catch (IOException ex) {
      throw new IdxkitException("cannot read " + jar, ex);
    }
  }

  /**
   * Runs {@code command} in {@code dir} with its output streamed to {@code out} and {@code err};
   * returns its exit code. If this thread is interrupted (Ctrl-C), stops the child and throws
   * {@link CommandInterruptedException} once it is gone.
   */
  int run(List<String> command, Path dir, PrintWriter out, PrintWriter err)
      throws InterruptedException {
    Process p;
    try {
      p =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectInput(ProcessBuilder.Redirect.INHERIT)
              .start();
    } catch (IOException e) {
      throw new IdxkitException("cannot start " + command.get(0), e);
    }
    Thread o = pump(p.getInputStream(), out, "idxkit-bench-stdout");
    Thread r = pump(p.getErrorStream(), err, "idxkit-bench-stderr");
    try {
      int code = p.waitFor();
      o.join();
      r.join();
      return code;
    } catch (InterruptedException ie) {
      stop(p);
      // What the child said while stopping ("cancelled with a checkpoint; --resume ...") is the
      // most useful output of an interrupted run: let it through. Its pipes close when it exits;
      // the bound only covers a grandchild that inherited them.
      drain(o);
      drain(r);
      session.guard().check(); // Ctrl-C: unwind as every command does, exit 130
      throw ie;
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
  }

  /** Waits up to {@link #STOP_GRACE_SECONDS} for a pump to reach the end of its pipe. */
  private static void drain(Thread pump) {
    boolean interrupted = Thread.interrupted();
    try {
      pump.join(TimeUnit.SECONDS.toMillis(STOP_GRACE_SECONDS));
    } catch (InterruptedException e) {
      interrupted = true;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** SIGTERM, a grace period, SIGKILL; returns when the child is gone. */
  private static void stop(Process p) {
    p.destroy();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          if (!p.waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor();
          }
          return;
        } catch (InterruptedException again) {
          interrupted = true; // keep waiting: returning would leave the child running
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Thread pump(InputStream in, PrintWriter to, String name) {
    Thread t =
        new Thread(
            () -> {
              char[] buf = new char[8192];
              try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                int n;
                while ((n = r.read(buf)) > 0) {
                  synchronized (to) {
                    to.write(buf, 0, n);
                    to.flush();
                  }
                }
              } catch (IOException e) {
                // The child's pipe closed under us (it was killed): nothing more will come.
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * Parses {@link #EXPERIMENTS_RESOURCE}: {@code #} comments and blank lines skipped; otherwise
   * {@code NAME MAIN-CLASS DESCRIPTION}, the description being the rest of the line. A missing or
   * malformed list is a broken build, not a user's mistake.
   */
  private static Map<String, Experiment> readExperiments() {
    Map<String, Experiment> m = new LinkedHashMap<>();
    try (InputStream in = BenchCommand.class.getResourceAsStream(EXPERIMENTS_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "no " + EXPERIMENTS_RESOURCE + " beside " + BenchCommand.class + ": rebuild the CLI");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        String l = line.strip();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        String[] f = l.split("\\s+", 3);
        if (f.length < 3 || m.containsKey(f[0])) {
          throw new IllegalStateException(
              EXPERIMENTS_RESOURCE
                  + " line "
                  + n
                  + ": expected NAME MAIN-CLASS DESCRIPTION with a new NAME, found: "
                  + l);
        }
        m.put(f[0], new Experiment(f[0], f[1], f[2]));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + EXPERIMENTS_RESOURCE, e);
    }
    return java.util.Collections.unmodifiableMap(m);
  }
}
