package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import dev.idxkit.e2e.Cli.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzes the command line's options: random command lines built from the real subcommands and
 * options, each a valid base with one to three things made wrong - out-of-range, negative and huge
 * numbers, sizes without a unit, missing files, directories where files belong, unwritable paths,
 * unknown options, empty strings, a required option left out. Every command must end with exit code
 * 0, 1 or 2, never print a stack trace, an "internal error" (a bug) or a Java class name (an
 * exception's, in any error it provokes), on exit 1 say on stderr what failed, and on exit 2 name
 * on stderr the option or path it refuses; a refused output path ({@code --json}, {@code --reject},
 * {@code --csv}) leaves the database it would have written as it was. The database the read-only
 * commands use ({@code shop.db}) stays byte for byte as it was, and after every writing command
 * ({@code load} and {@code idxbuild} on {@code scratch.db}) {@code idxkit check} finds {@code
 * scratch.db} clean.
 *
 * <p>The commands run from the packaged jar in one child JVM ({@link CliBatch}), which keeps 150 of
 * them (the default; {@code -Dfuzz.cli.iterations=N} for more) well under a minute. Seeded: {@code
 * -Dtests.seed=S} repeats a run.
 */
class CliFuzzIT {
  private static final int DEFAULT_ITERATIONS = 150;

  @TempDir static Path work;

  @BeforeAll
  static void createDatabases() throws Exception {
    Result r = Cli.run(work, "create", "shop.db", "--tpch");
    assertThat(r.exit()).as(r.toString()).isZero();
    TpchFixture.fill(work.resolve("shop.db"), 20);
    Path scratch = Files.createDirectories(work.resolve("scratch.db"));
    try (Stream<Path> files = Files.list(work.resolve("shop.db"))) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.copy(f, scratch.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Files.createDirectories(work.resolve("adir"));
    Files.writeString(work.resolve("file.txt"), "just text\n");
    Files.writeString(
        work.resolve("region.csv"), "r_regionkey,r_name,r_comment\n7,SEVEN,x\n8,EIGHT,\n");
    Files.writeString(work.resolve("good.srt"), "0 adir\n");
    Files.writeString(work.resolve("bad.srt"), "0 adir\nabc adir\n");
    Files.writeString(
        work.resolve("good.sql"), "CREATE TABLE t (id BIGINT NOT NULL, PRIMARY KEY (id));\n");
    Files.writeString(work.resolve("bad.sql"), "CREATE TABLE t (\n  id FOO\n);\n");
  }

  /**
   * One generated command line and what a refusal of it must name.
   *
   * @param badOutput an output path that cannot be written was given: a refusal must come before
   *     any change to the database
   */
  private record Invocation(
      List<String> args, List<String> culprits, boolean writes, boolean badOutput) {
    Invocation(List<String> args, List<String> culprits, boolean writes) {
      this(args, culprits, writes, false);
    }
  }

  /**
   * A Java exception's class name or a qualified Java name: never in an error a user reads ({@code
   * IOException}, {@code java.nio.file.NoSuchFileException}).
   */
  static final Pattern JAVA_NAME =
      Pattern.compile("\\b[A-Z][A-Za-z0-9]*(?:Exception|Error)\\b|\\bjava\\.[a-z]+\\.");

  @Test
  void randomOptionsExitCleanly() throws Exception {
    long seed = Seeds.seed();
    int iterations = Integer.getInteger("fuzz.cli.iterations", DEFAULT_ITERATIONS);
    String reproduce =
        Seeds.reproduce(seed, CliFuzzIT.class, "-Dfuzz.cli.iterations=" + iterations);
    SplittableRandom random = Seeds.random(seed);
    List<Invocation> planned = new ArrayList<>();
    for (int i = 0; i < iterations; i++) {
      Invocation inv = new Generator(random, i).next();
      planned.add(inv);
      if (inv.writes()) {
        planned.add(new Invocation(List.of("check", "scratch.db"), List.of(), false));
      }
    }
    planned.add(new Invocation(List.of("check", "shop.db"), List.of(), false));

    long t0 = System.nanoTime();
    List<String[]> results = runBatch(planned, reproduce);
    double seconds = (System.nanoTime() - t0) / 1e9;

    TreeMap<Integer, Integer> exits = new TreeMap<>();
    String[] digestsBefore = results.get(0)[1].split(",");
    List<String> failures = new ArrayList<>();
    Invocation previous = null;
    int previousExit = 0;
    for (int i = 0; i < planned.size(); i++) {
      Invocation inv = planned.get(i);
      String[] r = results.get(i + 1);
      int exit = Integer.parseInt(r[0]);
      String err = new String(Base64.getDecoder().decode(r[2]), StandardCharsets.UTF_8);
      String[] digests = r[3].split(",");
      String what = "idxkit " + show(inv.args()) + " -> exit " + exit + "\n--- stderr\n" + err;
      exits.merge(exit, 1, Integer::sum);
      if (exit < 0 || exit > 2) {
        failures.add("exit code not 0, 1 or 2: " + what);
      }
      if (err.contains("\tat ") || err.contains("Exception in thread")) {
        failures.add("stack trace on stderr: " + what);
      }
      if (err.contains("idxkit: internal error")) {
        failures.add("an internal error (a bug): " + what);
      }
      Matcher javaName = JAVA_NAME.matcher(err);
      if (javaName.find()) {
        failures.add(
            "a Java class name (" + javaName.group() + ") in what the user reads: " + what);
      }
      if (exit == 2) {
        if (!err.startsWith("idxkit: ")) {
          failures.add("exit 2 without an 'idxkit: ' line: " + what);
        }
        if (!inv.culprits().isEmpty() && inv.culprits().stream().noneMatch(c -> contains(err, c))) {
          failures.add("exit 2 without naming any of " + inv.culprits() + ": " + what);
        }
      }
      // A failure (exit 1) says so on stderr too: a load stopped by its rejects once said it only
      // in its report on stdout, and a dump refused by /proc only named its temporary file.
      if (exit == 1 && err.lines().noneMatch(l -> l.startsWith("idxkit: "))) {
        failures.add("exit 1 without an 'idxkit: ' line on stderr: " + what);
      }
      if (exit == 2 && inv.badOutput() && !digests[1].equals(digestsBefore[1])) {
        failures.add("scratch.db changed before a bad output path was refused: " + what);
      }
      if (!digests[0].equals(digestsBefore[0])) {
        failures.add("shop.db changed (it is only read): " + what);
      }
      if (previous != null && previous.writes() && exit != 0) {
        failures.add(
            "check scratch.db after 'idxkit "
                + show(previous.args())
                + "' (exit "
                + previousExit
                + ") is not clean: "
                + what);
      }
      digestsBefore = digests; // a changed shop.db is reported once, not after every command
      previous = inv.writes() ? inv : null;
      previousExit = exit;
    }
    System.out.printf(
        "cli fuzz: %d command lines in %.1f s, exit codes %s, %d problems, %s%n",
        planned.size(), seconds, exits, failures.size(), reproduce);
    assertThat(failures).as(reproduce).isEmpty();
    assertThat(exits.getOrDefault(2, 0))
        .as("most generated command lines are refused")
        .isPositive();
    assertThat(exits.getOrDefault(0, 0)).as("some run").isPositive();
  }

  /** Case-insensitive: the table ORDERS is refused as "table orders". */
  private static boolean contains(String text, String fragment) {
    return text.toLowerCase(Locale.ROOT).contains(fragment.toLowerCase(Locale.ROOT));
  }

  private static String show(List<String> args) {
    List<String> shown = new ArrayList<>();
    for (String a : args) {
      shown.add(a.isEmpty() || a.contains(" ") ? "'" + a + "'" : a);
    }
    return String.join(" ", shown);
  }

  /**
   * Runs {@code planned} through {@link CliBatch} in one child JVM; the first result is digests.
   */
  private static List<String[]> runBatch(List<Invocation> planned, String reproduce)
      throws IOException, InterruptedException {
    Path requests = work.resolve("requests.txt");
    Path results = work.resolve("results.txt");
    StringBuilder b = new StringBuilder();
    Base64.Encoder enc = Base64.getEncoder();
    for (Invocation inv : planned) {
      b.append(inv.args().size());
      for (String a : inv.args()) {
        b.append('\t').append(enc.encodeToString(a.getBytes(StandardCharsets.UTF_8)));
      }
      b.append('\n');
    }
    Files.writeString(requests, b);
    List<String> cmd = Cli.java();
    cmd.add("-cp");
    cmd.add(
        Cli.jar()
            + java.io.File.pathSeparator
            + Path.of(
                CliBatch.class.getProtectionDomain().getCodeSource().getLocation().getPath()));
    cmd.add(CliBatch.class.getName());
    cmd.add(requests.toString());
    cmd.add(results.toString());
    cmd.add("shop.db");
    cmd.add("scratch.db");
    Path log = work.resolve("batch.log");
    Process p =
        new ProcessBuilder(cmd)
            .directory(work.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Cli.nullFile()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    long limit = 120 + planned.size() * 2L;
    boolean done = p.waitFor(limit, TimeUnit.SECONDS);
    List<String> lines = Files.readAllLines(results, StandardCharsets.UTF_8);
    if (!done) {
      p.destroyForcibly().waitFor();
      int at = lines.size() - 1;
      throw new AssertionError(
          "idxkit "
              + show(planned.get(Math.min(at, planned.size() - 1)).args())
              + " still running after the batch's "
              + limit
              + " s; "
              + reproduce);
    }
    assertThat(p.exitValue()).as("the batch JVM; its output:%n%s", Files.readString(log)).isZero();
    assertThat(lines).as("one result per command line").hasSize(planned.size() + 1);
    return lines.stream().map(l -> l.split("\t", -1)).toList();
  }

  /** Builds command lines: a valid base for a random subcommand, then one to three faults. */
  private static final class Generator {
    private static final String[] INTS = {
      "-1",
      "0",
      "-2147483649",
      "2147483648",
      "99999999999999999999",
      "abc",
      "",
      "1.5",
      "0x10",
      " 3",
      "1e3",
      "1",
      "2",
      "8",
      "65",
      "9223372036854775807"
    };
    private static final String[] SIZES = {
      "-1", "0", "1", "1K", "1Q", "99999999T", "", "abc", "16M", "1.5G", "-5M", "8E"
    };
    private static final String[] PERCENTS = {"0", "-5", "101", "100", "50", "abc", "", "1e2"};
    private static final String[] CHARS = {"", "ab", ";", "\t", "\"\""};
    private static final String[] TABLES = {"region", "nope", "", "ORDERS", "orders", "a b"};
    private static final String[] INDEXES = {"orders_pk", "nope", "", "region_pk", "ORDERS_PK"};
    private static final String[] KEYS = {
      "1", "-1", "abc", "", "99999999999999999999", "1995-02-30", "x=1", "o_orderkey="
    };
    private static final String[] INPUTS = {"missing.csv", "adir", "", "file.txt", "nodir/x.csv"};
    private static final String[] DIRS = {"adir", "missing", "file.txt", "", "/proc"};
    private static final String[] SRTS = {"good.srt", "bad.srt", "missing.srt", "adir", ""};
    private static final String[] DBS = {"missing.db", "adir", "file.txt", "", "shop.db/data.area"};
    private static final String[] UNKNOWN = {"--bogus", "-x", "---", "--table=", "-SG=", "-Z9"};

    private final SplittableRandom r;
    private final int n;
    private final List<String> args = new ArrayList<>();
    private final List<String> culprits = new ArrayList<>();
    private boolean badOutput;

    Generator(SplittableRandom r, int n) {
      this.r = r;
      this.n = n;
    }

    private String pick(String[] values) {
      return values[r.nextInt(values.length)];
    }

    /** Paths a command may write: unique ones that work, and ones that cannot be written. */
    private String output() {
      String[] bad = {"adir", "nodir/out.txt", "/proc/out.txt", ""};
      if (r.nextInt(3) == 0) {
        return "out-" + n + ".txt";
      }
      if (r.nextInt(5) == 0) {
        return "file.txt"; // exists: dump refuses it without --force, the others replace it
      }
      badOutput = true;
      return pick(bad);
    }

    Invocation next() {
      int command = r.nextInt(10);
      boolean writes = false;
      List<Runnable> faults = new ArrayList<>();
      switch (command) {
        case 0 -> {
          base("info", "shop.db");
          faults.add(() -> flag("--json"));
        }
        case 1, 2 -> {
          base(command == 1 ? "check" : "analyze", "shop.db");
          faults.add(() -> option("--table", pick(TABLES)));
          faults.add(() -> option("--index", pick(INDEXES)));
          faults.add(() -> option("--progress", pick(new String[] {"plain", "bogus", "", "none"})));
        }
        case 3 -> {
          base("get", "shop.db", "--index", "orders_pk", "1");
          faults.add(() -> option("--key", pick(KEYS)));
          faults.add(() -> option("--limit", pick(INTS)));
          faults.add(() -> option("--format", pick(new String[] {"xml", "", "csv", "JSON"})));
          faults.add(() -> option("--columns", pick(new String[] {"nope", "", "o_orderkey,,"})));
          faults.add(() -> drop("--index", 1));
          faults.add(() -> positional(pick(KEYS)));
        }
        case 4 -> {
          base("scan", "shop.db", "--index", "orders_pk", "--limit", "3");
          faults.add(() -> option("--from", pick(KEYS)));
          faults.add(() -> option("--to", pick(KEYS)));
          faults.add(() -> option("--limit", pick(INTS)));
          faults.add(() -> option("--format", pick(new String[] {"xml", "", "csv"})));
          faults.add(() -> drop("--index", 1));
        }
        case 5 -> {
          base("dump", "shop.db", "--table", "region", "--csv", "-");
          faults.add(() -> replace("--csv", output()));
          faults.add(() -> replace("--table", pick(TABLES)));
          faults.add(() -> drop("--csv", 1));
        }
        case 6 -> {
          base("create", "new-" + n + ".db", "--tpch");
          faults.add(() -> option("--page-size", pick(INTS)));
          faults.add(
              () ->
                  replaceFlag(
                      "--tpch",
                      "--ddl",
                      pick(new String[] {"bad.sql", "missing.sql", "adir", ""})));
          faults.add(
              () -> replacePositional(1, pick(new String[] {"adir", "file.txt", "", "shop.db"})));
        }
        case 7, 8 -> {
          writes = true;
          base(
              "load",
              "scratch.db",
              "--table",
              "region",
              "--csv",
              "region.csv",
              "--reject",
              "rej-" + n + ".txt");
          // A load that fails after its first checkpoint (too many rejects, a duplicate key) stays
          // unfinished, and later loads are refused naming it until one passes --restart.
          if (r.nextBoolean()) {
            args.add("--restart");
          }
          culprits.add("unfinished load");
          faults.add(() -> option("--delimiter", pick(CHARS)));
          faults.add(() -> option("--quote", pick(CHARS)));
          faults.add(
              () -> option("--index-build", pick(new String[] {"live", "none", "bogus", ""})));
          faults.add(() -> option("--checkpoint-rows", pick(INTS)));
          faults.add(() -> option("--checkpoint-mb", pick(INTS)));
          faults.add(() -> option("--max-errors", pick(INTS)));
          faults.add(() -> option("--threads", pick(INTS)));
          faults.add(() -> option("--memory", pick(SIZES)));
          faults.add(() -> option("--srt", pick(SRTS)));
          faults.add(() -> option("-T", pick(DIRS)));
          faults.add(() -> replace("--csv", pick(INPUTS)));
          faults.add(() -> replace("--reject", output()));
          faults.add(() -> replace("--table", pick(TABLES)));
          faults.add(
              () -> {
                // The generator: region and nation are the same few rows at any scale factor.
                replaceFlag(
                    "--csv", "--tpch", pick(new String[] {"region", "nation", "bogus", ""}));
                culprits.add("--tpch");
                option(
                    "--sf", pick(new String[] {"-1", "0", "NaN", "1e400", "abc", "", "Infinity"}));
              });
        }
        default -> {
          writes = true;
          base("idxbuild", "scratch.db", "--table", "region");
          // Loads with --index-build none may have put a region key in twice: a rebuild of its
          // unique index is then refused for the data, whatever the options.
          culprits.add("duplicate key");
          faults.add(() -> option("--scan-threads", pick(INTS)));
          faults.add(() -> option("--threads", pick(INTS)));
          faults.add(() -> option("--merge-threads", pick(INTS)));
          faults.add(() -> option("-SG", pick(INTS)));
          faults.add(() -> option("--memory", pick(SIZES)));
          faults.add(() -> option("-TB", pick(INTS)));
          faults.add(() -> option("-TM", pick(INTS)));
          faults.add(() -> option("-TMB", pick(INTS)));
          faults.add(() -> option("--fill", pick(PERCENTS)));
          faults.add(() -> option("--srt", pick(SRTS)));
          faults.add(() -> option("-T", pick(DIRS)));
          faults.add(() -> option("--json", output()));
          faults.add(() -> option("--index", pick(INDEXES)));
          faults.add(() -> option("--area", pick(new String[] {"nope", "", "data"})));
          faults.add(() -> replace("--table", pick(TABLES)));
        }
      }
      // Faults every command shares: an unknown option, a bad database path, an extra argument.
      faults.add(() -> unknown(pick(UNKNOWN)));
      if (command != 6) {
        faults.add(() -> replacePositional(1, pick(DBS)));
      }
      int count = 1 + r.nextInt(3);
      for (int i = 0; i < count; i++) {
        faults.get(r.nextInt(faults.size())).run();
      }
      return new Invocation(List.copyOf(args), List.copyOf(culprits), writes, badOutput);
    }

    private void base(String... a) {
      args.addAll(List.of(a));
    }

    private void flag(String name) {
      args.add(name);
      culprits.add(name); // given twice, it is the one refused
    }

    /**
     * How refusals name some options: by another of their names (picocli shows {@code -pfactor} for
     * {@code --fill}), or by a header that the option made unreadable.
     */
    private static final Map<String, List<String>> ALIASES =
        Map.of(
            "--fill", List.of("-pfactor"),
            "--threads", List.of("-threadnum"),
            "--scan-threads", List.of("-datascanthreads"),
            "--merge-threads", List.of("-mergethreads"),
            "--srt", List.of("-SS"),
            // a delimiter or quote that splits the header differently: the header is refused
            "--delimiter", List.of("header does not match"),
            "--quote", List.of("header does not match"));

    /** Adds {@code name value}; a refusal must name the option or the value. */
    private void option(String name, String value) {
      args.add(name);
      args.add(value);
      culprits.add(name);
      culprits.addAll(ALIASES.getOrDefault(name, List.of()));
      if (!value.isBlank()) {
        culprits.add(value);
      }
    }

    private void replace(String name, String value) {
      int at = args.indexOf(name);
      if (at < 0) {
        option(name, value);
        return;
      }
      args.set(at + 1, value);
      culprits.add(name);
      if (!value.isBlank()) {
        culprits.add(value);
      }
    }

    private void replaceFlag(String old, String name, String value) {
      int at = args.indexOf(old);
      if (at >= 0) {
        args.remove(at);
        if (at < args.size() && !args.get(at).startsWith("-") && !old.equals("--tpch")) {
          args.remove(at);
        }
      }
      option(name, value);
    }

    private void drop(String name, int values) {
      int at = args.indexOf(name);
      if (at >= 0) {
        for (int i = 0; i <= values; i++) {
          args.remove(at);
        }
        culprits.add(name);
      }
    }

    private void positional(String value) {
      args.add(value);
      culprits.add(value.isBlank() ? "Unmatched argument" : value);
      culprits.add("KEY"); // get reads extra words as key values: "KEY : 2 values for index"
    }

    private void replacePositional(int at, String value) {
      args.set(at, value);
      culprits.add(value.isBlank() ? "DB" : value);
    }

    private void unknown(String option) {
      args.add(option);
      culprits.add(option);
      int eq = option.indexOf('=');
      if (eq > 0) {
        culprits.add(option.substring(0, eq)); // --table= is --table with an empty value
      }
    }
  }
}
