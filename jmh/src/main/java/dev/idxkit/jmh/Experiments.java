package dev.idxkit.jmh;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The experiments {@code idxkit bench EXPERIMENT} runs: name, main class in this jar, one line of
 * description, read from {@code experiments.txt} beside this class. That file is the one list: the
 * command line cannot import this module, so {@code cli}'s build copies the same file into the CLI
 * ({@code dev.idxkit.cli.commands.BenchCommand} reads it there) and {@code idxkit bench --help}
 * lists the experiments without this jar.
 *
 * <p>Adding an experiment: one line in {@code experiments.txt}. Its class has a {@code public
 * static void main(String[])} that takes its options (at least {@code --out DIR}, default {@code
 * bench-results/<name>}, and {@code --help}), prints where it wrote its files, and exits 0 on
 * success, 1 on failure, 2 on bad usage ({@link ExperimentArgs} does the parsing and the exit
 * codes). {@code ExperimentsTest} checks that every such class is listed, and nothing else.
 */
public final class Experiments {
  /** The list, a resource beside this class (and, copied by the build, beside BenchCommand). */
  public static final String RESOURCE = "experiments.txt";

  /** One experiment: what the user types, the class that runs it, what it measures. */
  public record Experiment(String name, String mainClass, String description) {}

  public static final List<Experiment> ALL = read();

  private Experiments() {}

  /**
   * Parses {@link #RESOURCE}: {@code #} comments and blank lines skipped; otherwise {@code NAME
   * MAIN-CLASS DESCRIPTION}, the description being the rest of the line.
   */
  private static List<Experiment> read() {
    List<Experiment> out = new ArrayList<>();
    try (InputStream in = Experiments.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("no " + RESOURCE + " beside " + Experiments.class);
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
        if (f.length < 3) {
          throw new IllegalStateException(
              RESOURCE + " line " + n + ": expected NAME MAIN-CLASS DESCRIPTION, found: " + l);
        }
        out.add(new Experiment(f[0], f[1], f[2]));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    return List.copyOf(out);
  }

  /** The experiment called {@code name}, if there is one. */
  public static Optional<Experiment> named(String name) {
    return ALL.stream().filter(e -> e.name().equals(name)).findFirst();
  }

  /** Prints one line per experiment: name, main class and description, separated by tabs. */
  public static void main(String[] args) {
    for (Experiment e : ALL) {
      System.out.println(e.name() + "\t" + e.mainClass() + "\t" + e.description());
    }
  }
}
