package dev.idxkit.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ExperimentArgsTest {
  private static ExperimentArgs spec() {
    return ExperimentArgs.command("demo", "A demo experiment.\nSecond line.")
        .positional("FILE-SIZE", "1g", "size of the file")
        .option("--runs", "N", "14", "number of runs")
        .option("--readers", "LIST", "1,2,4", "reader counts")
        .flag("--keep", "keep files");
  }

  @Test
  void valuesComeFromOptionsPositionalsAndDefaults() {
    ExperimentArgs a = spec().parse("512m", "--runs=3", "--keep", "--out", "x/y");
    assertThat(a.bytes("FILE-SIZE", 1, Long.MAX_VALUE)).isEqualTo(512L << 20);
    assertThat(a.integer("--runs", 1, 100)).isEqualTo(3);
    assertThat(a.flag("--keep")).isTrue();
    assertThat(a.out()).isEqualTo(Path.of("x/y"));
    assertThat(a.integers("--readers", 1, 64)).containsExactly(1, 2, 4);
    assertThat(a.given("--runs")).isTrue();
    assertThat(a.given("--readers")).isFalse();

    ExperimentArgs d = spec().parse();
    assertThat(d.bytes("FILE-SIZE", 1, Long.MAX_VALUE)).isEqualTo(1L << 30);
    assertThat(d.out()).isEqualTo(Path.of("bench-results/demo"));
    assertThat(d.flag("--keep")).isFalse();
  }

  @Test
  void countsAndSizesTakeSuffixes() {
    ExperimentArgs a =
        ExperimentArgs.command("demo", "x")
            .option("--a", "N", "305k", "")
            .option("--b", "N", "5.2m", "")
            .option("--c", "N", "305_000", "")
            .option("--d", "B", "1.5k", "");
    a.parse();
    assertThat(a.count("--a", 0, Long.MAX_VALUE)).isEqualTo(305_000);
    assertThat(a.count("--b", 0, Long.MAX_VALUE)).isEqualTo(5_200_000);
    assertThat(a.count("--c", 0, Long.MAX_VALUE)).isEqualTo(305_000);
    assertThat(a.bytes("--d", 0, Long.MAX_VALUE)).isEqualTo(1536);
  }

  @Test
  void badUsageNamesTheOptionTheValueAndTheBound() {
    assertThatThrownBy(() -> spec().parse("--bogus"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("unknown option --bogus (expected one of: --out, --verbose");
    assertThatThrownBy(() -> spec().parse("--runs")).hasMessage("--runs needs a value: --runs N");
    assertThatThrownBy(() -> spec().parse("--keep=yes"))
        .hasMessage("--keep takes no value (given: yes)");
    assertThatThrownBy(() -> spec().parse("1g", "2g"))
        .hasMessage("unexpected argument 2g (expected at most 1: FILE-SIZE)");
    assertThatThrownBy(() -> spec().parse("--runs", "0").integer("--runs", 1, 100))
        .hasMessage("--runs : 0 (expected: 1..100)");
    assertThatThrownBy(() -> spec().parse("--runs", "many").integer("--runs", 1, 100))
        .hasMessage("--runs : many (expected: a number, optionally with k, m or g)");
  }

  @Test
  void exitCodesAndMessages() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    AtomicReference<Integer> ran = new AtomicReference<>();

    assertThat(
            spec()
                .execute(
                    new String[] {"--runs", "7"}, a -> ran.set(a.integer("--runs", 1, 9)), o, e))
        .isZero();
    assertThat(ran.get()).isEqualTo(7);

    assertThat(spec().execute(new String[] {"--help"}, a -> ran.set(-1), o, e)).isZero();
    assertThat(ran.get()).as("--help does not run the body").isEqualTo(7);
    String help = out.toString(StandardCharsets.UTF_8);
    assertThat(help)
        .startsWith("Usage: idxkit bench demo [OPTIONS] [FILE-SIZE]")
        .contains("  A demo experiment.", "  Second line.")
        .contains("--runs N", "number of runs (default 14)", "--out DIR")
        .contains("Exit codes: 0 done, 1 failed, 2 bad usage.");

    assertThat(spec().execute(new String[] {"--runs", "x"}, a -> a.integer("--runs", 1, 9), o, e))
        .isEqualTo(2);
    assertThat(
            spec()
                .execute(
                    new String[] {},
                    a -> {
                      throw new IllegalStateException("boom");
                    },
                    o,
                    e))
        .isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8).lines().toList())
        .containsExactly(
            "demo: --runs : x (expected: a number, optionally with k, m or g); see 'idxkit bench"
                + " demo --help'",
            "demo: failed: boom (run with --verbose for the stack trace)");
  }

  @Test
  void aMainThatParsesItsOwnArgumentsGetsHelpVerboseAndTheExitCodes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    AtomicReference<String[]> seen = new AtomicReference<>();
    ExperimentArgs.ArgsBody body =
        args -> {
          seen.set(args);
          if (args.length > 0 && args[0].equals("--keys")) {
            throw new InvalidInputException("--keys : x (expected: a number)");
          }
          if (args.length > 0 && args[0].equals("--boom")) {
            throw new IllegalStateException("boom");
          }
        };

    assertThat(
            ExperimentArgs.executeMain("compare", "usage: x", new String[] {"--help"}, body, o, e))
        .isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("usage: x\n");
    assertThat(seen.get()).as("--help runs nothing").isNull();

    assertThat(
            ExperimentArgs.executeMain(
                "compare", "usage: x", new String[] {"--verbose", "--seed", "3"}, body, o, e))
        .isZero();
    assertThat(seen.get()).containsExactly("--seed", "3");

    assertThat(ExperimentArgs.executeMain("compare", "u", new String[] {"--keys", "x"}, body, o, e))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("compare: --keys : x (expected: a number); see 'idxkit bench compare --help'");

    assertThat(ExperimentArgs.executeMain("compare", "u", new String[] {"--boom"}, body, o, e))
        .isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("compare: failed: boom");
  }
}
