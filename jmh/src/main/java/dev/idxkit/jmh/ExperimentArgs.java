package dev.idxkit.jmh;

import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.InvalidInputException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The command line of one experiment's {@code main}, and its exit codes. Experiments run in a child
 * JVM started by {@code idxkit bench} from the benchmarks jar, which has no picocli; this is the
 * small parser they share.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *   ExperimentArgs.command("growth", "Random inserts with 9 indexed keys, run by run.")
 *       .option("--runs", "N", "14", "number of runs")
 *       .flag("--keep", "keep the database afterwards")
 *       .run(args, GrowthBench::run);
 * }
 * }</pre>
 *
 * <p>Syntax: {@code --name value} or {@code --name=value}; flags take no value; positional
 * parameters fill the declared ones in order and may be left out (they have defaults). Every
 * experiment also gets {@code --out DIR} (default {@code bench-results/<experiment>}, relative to
 * the current directory), {@code --verbose} and {@code --help}.
 *
 * <p>Exit codes, as the CLI's: 0 done; 1 failed (one line on stderr naming the experiment, the
 * stack trace with {@code --verbose}); 2 bad usage or input ({@link InvalidInputException}, or any
 * {@link IdxkitException} whose {@code isBadInput()} is true), with the line saying where to find
 * the help.
 */
public final class ExperimentArgs {
  /** What an experiment does once its arguments parsed. */
  @FunctionalInterface
  public interface Body {
    void run(ExperimentArgs args) throws Exception;
  }

  private record Param(String name, String label, String defaultValue, String help, boolean flag) {}

  private final String experiment;
  private final String summary;
  private final List<Param> positionals = new ArrayList<>();
  private final Map<String, Param> options = new LinkedHashMap<>();
  private final Map<String, String> values = new LinkedHashMap<>();

  private ExperimentArgs(String experiment, String summary) {
    this.experiment = experiment;
    this.summary = summary;
    option("--out", "DIR", "bench-results/" + experiment, "where the CSV, JSON and PNG files go");
    flag("--verbose", "print the stack trace of a failure");
    flag("--help", "print this help and exit");
  }

  /** A new command line for {@code experiment}, with its one-paragraph summary for the help. */
  public static ExperimentArgs command(String experiment, String summary) {
    return new ExperimentArgs(experiment, summary);
  }

  /** Declares an optional positional parameter (in order). */
  public ExperimentArgs positional(String label, String defaultValue, String help) {
    positionals.add(new Param(label, label, defaultValue, help, false));
    return this;
  }

  /** Declares an option that takes a value. */
  public ExperimentArgs option(String name, String label, String defaultValue, String help) {
    options.put(name, new Param(name, label, defaultValue, help, false));
    return this;
  }

  /** Declares an option without a value. */
  public ExperimentArgs flag(String name, String help) {
    options.put(name, new Param(name, null, null, help, true));
    return this;
  }

  /**
   * Parses {@code args}, runs {@code body} and exits the JVM with the code the class comment lists.
   * {@code --help} prints the usage to stdout and exits 0 without running {@code body}.
   */
  public void run(String[] args, Body body) {
    System.exit(execute(args, body, System.out, System.err));
  }

  /** {@link #run} without the exit: returns the code (for tests). */
  public int execute(String[] args, Body body, PrintStream out, PrintStream err) {
    return exitCode(
        experiment,
        List.of(args).contains("--verbose"),
        err,
        () -> {
          parse(args);
          if (flag("--help")) {
            usage(out);
            return;
          }
          body.run(this);
        });
  }

  /** Work whose failures {@link #exitCode} turns into an exit code. */
  @FunctionalInterface
  public interface Work {
    void run() throws Exception;
  }

  /** A {@code main} body that parses its own arguments. */
  @FunctionalInterface
  public interface ArgsBody {
    void run(String[] args) throws Exception;
  }

  /**
   * For a {@code main} that parses its own arguments (the peer experiments): {@code --help}
   * anywhere prints {@code usage} and exits 0, {@code --verbose} is taken out of {@code args} and
   * asks for the stack trace of a failure, {@code body} gets the rest, and the JVM exits with the
   * code the class comment lists.
   */
  public static void runMain(String experiment, String usage, String[] args, ArgsBody body) {
    System.exit(executeMain(experiment, usage, args, body, System.out, System.err));
  }

  /** {@link #runMain} without the exit: returns the code (for tests). */
  public static int executeMain(
      String experiment,
      String usage,
      String[] args,
      ArgsBody body,
      PrintStream out,
      PrintStream err) {
    List<String> rest = new ArrayList<>(List.of(args));
    boolean verbose = rest.removeIf("--verbose"::equals);
    if (rest.contains("--help")) {
      out.println(usage);
      return 0;
    }
    return exitCode(experiment, verbose, err, () -> body.run(rest.toArray(new String[0])));
  }

  /**
   * Runs {@code work} and returns the exit code of the class comment: 0, 1 (one line naming the
   * experiment), 2 for bad usage or input, 130 when interrupted.
   */
  static int exitCode(String experiment, boolean verbose, PrintStream err, Work work) {
    try {
      work.run();
      return 0;
    } catch (IdxkitException e) {
      if (e.isBadInput()) {
        err.println(
            experiment + ": " + e.getMessage() + "; see 'idxkit bench " + experiment + " --help'");
        if (verbose) {
          e.printStackTrace(err);
        }
        return 2;
      }
      return failed(experiment, e, verbose, err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println(experiment + ": interrupted");
      return 130;
    } catch (Exception | Error e) {
      return failed(experiment, e, verbose, err);
    }
  }

  private static int failed(String experiment, Throwable e, boolean verbose, PrintStream err) {
    err.println(
        experiment
            + ": failed: "
            + (e.getMessage() == null ? e.getClass().getName() : e.getMessage())
            + (verbose ? "" : " (run with --verbose for the stack trace)"));
    if (verbose) {
      e.printStackTrace(err);
    }
    return 1;
  }

  /** Reads {@code args} into values; throws {@link InvalidInputException} on bad usage. */
  public ExperimentArgs parse(String... args) {
    values.clear();
    int positional = 0;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.startsWith("--")) {
        String name = a;
        String value = null;
        int eq = a.indexOf('=');
        if (eq > 0) {
          name = a.substring(0, eq);
          value = a.substring(eq + 1);
        }
        Param p = options.get(name);
        if (p == null) {
          throw new InvalidInputException(
              "unknown option "
                  + name
                  + " (expected one of: "
                  + String.join(", ", options.keySet())
                  + ")");
        }
        if (p.flag()) {
          if (value != null) {
            throw new InvalidInputException(name + " takes no value (given: " + value + ")");
          }
          value = "true";
        } else if (value == null) {
          if (i + 1 >= args.length) {
            throw new InvalidInputException(name + " needs a value: " + name + " " + p.label());
          }
          value = args[++i];
        }
        values.put(name, value);
      } else {
        if (positional >= positionals.size()) {
          throw new InvalidInputException(
              "unexpected argument "
                  + a
                  + " (expected "
                  + (positionals.isEmpty()
                      ? "no positional arguments"
                      : "at most " + positionals.size() + ": " + labels())
                  + ")");
        }
        values.put(positionals.get(positional++).name(), a);
      }
    }
    return this;
  }

  /** The value given for {@code name} (an option or a positional label), or its default. */
  public String get(String name) {
    if (values.containsKey(name)) {
      return values.get(name);
    }
    Param p = options.get(name);
    if (p == null) {
      p = positionals.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
    }
    if (p == null) {
      throw new IllegalArgumentException(name + " is not declared by " + experiment);
    }
    return p.defaultValue();
  }

  /** True if the flag was given. */
  public boolean flag(String name) {
    return "true".equals(values.get(name));
  }

  /** True if {@code name} was given on the command line (not just defaulted). */
  public boolean given(String name) {
    return values.containsKey(name);
  }

  /** The output directory ({@code --out}). */
  public Path out() {
    return Path.of(get("--out"));
  }

  public Path path(String name) {
    String v = get(name);
    return v == null ? null : Path.of(v);
  }

  /** An integer option in {@code min..max}. */
  public int integer(String name, int min, int max) {
    return (int) count(name, min, max);
  }

  /**
   * A count in {@code min..max}: digits with optional {@code _} separators, or a decimal with
   * {@code k} (thousand) or {@code m} (million): {@code 305000}, {@code 305_000}, {@code 305k},
   * {@code 5.2m}.
   */
  public long count(String name, long min, long max) {
    String v = get(name);
    long n = parse(name, v, 1000);
    return inRange(name, v, n, min, max);
  }

  /**
   * A size in bytes in {@code min..max}: digits, or a decimal with {@code k}, {@code m}, {@code g}
   * (binary: KiB, MiB, GiB): {@code 1g}, {@code 512m}, {@code 1.5g}.
   */
  public long bytes(String name, long min, long max) {
    String v = get(name);
    long n = parse(name, v, 1024);
    return inRange(name, v, n, min, max);
  }

  /** A comma-separated list of integers, each in {@code min..max}: {@code 1,2,4}. */
  public List<Integer> integers(String name, int min, int max) {
    String v = get(name);
    List<Integer> out = new ArrayList<>();
    for (String part : v.split(",")) {
      long n = parse(name, part.trim(), 1000);
      out.add((int) inRange(name, v, n, min, max));
    }
    return out;
  }

  private static long parse(String name, String v, int unit) {
    if (v == null || v.isBlank()) {
      throw new InvalidInputException(name + " : (empty) (expected: a number)");
    }
    String s = v.trim().replace("_", "").toLowerCase(Locale.ROOT);
    long mult = 1;
    char last = s.charAt(s.length() - 1);
    if (last == 'k' || last == 'm' || last == 'g') {
      mult = last == 'k' ? unit : last == 'm' ? (long) unit * unit : (long) unit * unit * unit;
      s = s.substring(0, s.length() - 1);
    }
    try {
      BigDecimal n = new BigDecimal(s).multiply(BigDecimal.valueOf(mult));
      return n.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      throw new InvalidInputException(
          name + " : " + v + " (expected: a number, optionally with k, m or g)");
    }
  }

  private static long inRange(String name, String v, long n, long min, long max) {
    if (n < min || n > max) {
      throw new InvalidInputException(name + " : " + v + " (expected: " + min + ".." + max + ")");
    }
    return n;
  }

  private String labels() {
    return String.join(" ", positionals.stream().map(Param::name).toList());
  }

  /** Prints the usage: the synopsis, the summary, then one line per parameter with its default. */
  public void usage(PrintStream out) {
    StringBuilder synopsis = new StringBuilder("Usage: idxkit bench " + experiment + " [OPTIONS]");
    for (Param p : positionals) {
      synopsis.append(" [").append(p.name()).append(']');
    }
    out.println(synopsis);
    out.println();
    for (String line : summary.split("\n")) {
      out.println("  " + line);
    }
    out.println();
    for (Param p : positionals) {
      out.printf(Locale.ROOT, "  %-22s %s (default %s)%n", p.name(), p.help(), p.defaultValue());
    }
    for (Param p : options.values()) {
      String head = p.flag() ? p.name() : p.name() + " " + p.label();
      String dflt =
          p.flag() || p.defaultValue() == null ? "" : " (default " + p.defaultValue() + ")";
      out.printf(Locale.ROOT, "  %-22s %s%s%n", head, p.help(), dflt);
    }
    out.println();
    out.println("Exit codes: 0 done, 1 failed, 2 bad usage.");
  }
}
