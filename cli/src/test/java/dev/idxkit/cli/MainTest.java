package dev.idxkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.cli.CliHarness.Result;
import dev.idxkit.core.IdxkitIOException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class MainTest {
  final CliHarness cli = new CliHarness();

  @ParameterizedTest
  @ValueSource(strings = {"create", "info", "get", "scan", "check", "analyze", "dump"})
  void everyCommandHelpHasAnExampleAndTheExitCodes(String command) {
    Result r = cli.run(command, "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .startsWith("Usage: idxkit " + command)
        .containsPattern("Examples?:\\R  idxkit " + command + " ")
        .contains("Exit codes:", "  0 ", "  1 ", "  2 ", "  130 ", "--verbose");
  }

  @Test
  void topLevelHelpListsTheCommandsAndCompletion() {
    Result r = cli.run("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains("create", "info", "get", "scan", "check", "analyze", "dump")
        .contains("generate-completion", "source <(idxkit generate-completion)");
  }

  /**
   * Help text wraps as paragraphs: picocli prints each element of a description or footer on lines
   * of its own and wraps one longer than the help's width, so a paragraph written as several
   * elements of more than that width reads ragged ("...published at" / "checkpoints;" / "a
   * crash..."). A paragraph is one element (string concatenation in the source); an element wider
   * than the help may only end its paragraph.
   */
  @Test
  void everyHelpParagraphIsOneElementSoItWrapsEvenly() {
    try (Session s = session()) {
      CommandLine root =
          Main.commandLine(
              s, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
      List<CommandLine> all = new java.util.ArrayList<>(root.getSubcommands().values());
      all.add(root);
      assertThat(all).hasSizeGreaterThan(10);
      List<String> ragged = new java.util.ArrayList<>();
      for (CommandLine c : all) {
        CommandLine.Model.UsageMessageSpec u = c.getCommandSpec().usageMessage();
        for (String[] text : List.of(u.description(), u.footer())) {
          for (int i = 0; i + 1 < text.length; i++) {
            if (text[i].length() > u.width() && !text[i + 1].isEmpty()) {
              ragged.add(c.getCommandName() + ": " + text[i]);
            }
          }
        }
      }
      assertThat(ragged)
          .as("help lines wider than the help, followed by more of their paragraph")
          .isEmpty();
    }
  }

  @Test
  void completionScriptCoversTheCommands() {
    Result r = cli.run("generate-completion");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("complete -F", "idxkit", "analyze", "--index");
  }

  /**
   * A run builds only the command it names (picocli's reflection over every command was a quarter
   * of a short command's time); what the user reads must not change: the help and the errors of a
   * command are the same as from the whole tree, and a line that names no command gets them all.
   */
  @Test
  void aRunBuildsTheNamedCommandAloneAndPrintsWhatTheWholeTreePrints() {
    assertThat(Main.named("info", "db")).containsExactly(dev.idxkit.cli.commands.InfoCommand.class);
    assertThat(Main.named("idxbuild")).hasSize(1);
    assertThat(Main.named("--help")).isEqualTo(Main.SUBCOMMANDS);
    assertThat(Main.named("inf", "db")).isEqualTo(Main.SUBCOMMANDS);
    assertThat(Main.named()).isEqualTo(Main.SUBCOMMANDS);
    assertThat(Main.named("generate-completion")).isEqualTo(Main.SUBCOMMANDS);
    assertThat(Main.named("--version")).isEmpty();
    assertThat(Main.named("-V")).isEmpty();
    assertThat(Main.named("--version", "info")).isEqualTo(Main.SUBCOMMANDS);
    for (String[] line :
        List.of(
            new String[] {"info", "--help"},
            new String[] {"idxbuild", "--help"},
            new String[] {"check", "db", "--tabel", "x"},
            new String[] {"scan"},
            new String[] {"bench", "--help"},
            new String[] {"--version"},
            new String[] {"-V"})) {
      Result pruned = cli.run(line);
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int exit;
      try (Session s = session()) {
        exit = Main.commandLine(s, new PrintWriter(out), new PrintWriter(err)).execute(line);
      }
      assertThat(pruned.exit()).as(String.join(" ", line)).isEqualTo(exit);
      assertThat(pruned.out()).as(String.join(" ", line)).isEqualTo(out.toString());
      assertThat(pruned.err()).as(String.join(" ", line)).isEqualTo(err.toString());
    }
  }

  @Test
  void versionNamesTheTool() {
    Result r = cli.run("--version");
    assertThat(r.exit()).isZero();
    assertThat(r.outLines().get(0)).startsWith("idxkit ");
    assertThat(r.outLines().get(1)).startsWith("Java ");
  }

  /** What a later command with OpenEdge-style names declares. */
  @Command(name = "probe")
  static final class Probe implements Callable<Integer> {
    @Option(names = "-SG")
    int sortGroups;

    @Option(names = "-S")
    boolean s;

    @Option(names = "-G")
    boolean g;

    @Override
    public Integer call() {
      return sortGroups * 10 + (s ? 1 : 0) + (g ? 2 : 0);
    }
  }

  @Test
  void singleDashLongNamesAreNotSplitIntoShortOptions() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    try (Session s = session()) {
      CommandLine cl = Main.commandLine(s, new PrintWriter(out), new PrintWriter(err));
      cl.addSubcommand(new CommandLine(new Probe()));
      Main.configure(cl, s, new PrintWriter(out), new PrintWriter(err));
      assertThat(cl.execute("probe", "-SG", "48")).isEqualTo(480);
      assertThat(cl.execute("probe", "-S", "-G")).isEqualTo(3);
      // With POSIX clustering "-GS" would be -G -S; here it is an unknown option.
      assertThat(cl.execute("probe", "-GS")).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(err.toString()).contains("Unknown option: '-GS'");
    }
  }

  @Test
  void parseErrorsAreOneLineWithTheCommandToAskForHelp() {
    Result r = cli.run("check", "db", "--tabel", "x");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines())
        .containsExactly(
            "idxkit: Unknown options: '--tabel', 'x' (did you mean --table?); see 'idxkit check"
                + " --help'");
  }

  @Test
  void oneLineFoldsLineBreaks() {
    assertThat(Failures.oneLine("a\n  b\r\nc ")).isEqualTo("a b c");
    assertThat(Failures.oneLine(null)).isEqualTo("(no message)");
  }

  /** A command with a bug in it. */
  @Command(name = "bug")
  static final class Bug implements Callable<Integer> {
    @Override
    public Integer call() {
      throw new IllegalStateException("boom");
    }
  }

  @Test
  void unexpectedErrorsSayHowToSeeMore() {
    StringWriter err = new StringWriter();
    try (Session s = session()) {
      CommandLine cl =
          Main.commandLine(s, new PrintWriter(new StringWriter()), new PrintWriter(err));
      cl.addSubcommand(new CommandLine(new Bug()));
      Main.configure(cl, s, new PrintWriter(new StringWriter()), new PrintWriter(err));
      assertThat(cl.execute("bug")).isEqualTo(ExitCodes.FAILED);
    }
    assertThat(List.of(err.toString().split("\\R")))
        .containsExactly(
            "idxkit: internal error: boom; run with --verbose for the details to report");
  }

  /** A command whose I/O fails with an exception that has no message, wrapped or not. */
  @Command(name = "io")
  static final class IoFailure implements Callable<Integer> {
    @picocli.CommandLine.Option(names = "--wrapped")
    boolean wrapped;

    @Override
    public Integer call() {
      if (wrapped) {
        throw new UncheckedIOException(new IOException());
      }
      throw new IdxkitIOException("cannot write out.csv", new IOException());
    }
  }

  /**
   * An exception's class name was the only text of these (java.io.IOException), which the line used
   * to lose: now the words say what kind of problem it was.
   */
  @Test
  void ioFailuresWithoutAMessageSayIoError() {
    assertThat(runIo()).containsExactly("idxkit: cannot write out.csv: I/O error");
    assertThat(runIo("--wrapped"))
        .containsExactly(
            "idxkit: internal error: I/O error; run with --verbose for the details to report");
    assertThat(runIo("--wrapped", "--verbose"))
        .first()
        .isEqualTo(
            "idxkit: internal error: I/O error; run with --verbose for the details to report");
    assertThat(runIo("--wrapped", "--verbose")).anyMatch(l -> l.contains("java.io.IOException"));
  }

  private List<String> runIo(String... args) {
    StringWriter err = new StringWriter();
    try (Session s = session()) {
      CommandLine cl =
          Main.commandLine(s, new PrintWriter(new StringWriter()), new PrintWriter(err));
      CommandLine io = new CommandLine(new IoFailure());
      io.addMixin("common", new CommonOptions());
      cl.addSubcommand(io);
      Main.configure(cl, s, new PrintWriter(new StringWriter()), new PrintWriter(err));
      String[] all = new String[args.length + 1];
      all[0] = "io";
      System.arraycopy(args, 0, all, 1, args.length);
      assertThat(cl.execute(all)).isEqualTo(ExitCodes.FAILED);
    }
    return List.of(err.toString().split("\\R"));
  }

  private Session session() {
    return new Session(
        cli.guard,
        false,
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        StandardCharsets.UTF_8,
        System::nanoTime,
        Session.PLAIN_INTERVAL_MILLIS);
  }
}
