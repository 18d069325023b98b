package dev.idxkit.cli;

import dev.idxkit.cli.commands.AnalyzeCommand;
import dev.idxkit.cli.commands.BenchCommand;
import dev.idxkit.cli.commands.CdsTrainingCommand;
import dev.idxkit.cli.commands.CheckCommand;
import dev.idxkit.cli.commands.CreateCommand;
import dev.idxkit.cli.commands.DemoCommand;
import dev.idxkit.cli.commands.DumpCommand;
import dev.idxkit.cli.commands.GetCommand;
import dev.idxkit.cli.commands.IdxbuildCommand;
import dev.idxkit.cli.commands.InfoCommand;
import dev.idxkit.cli.commands.LoadCommand;
import dev.idxkit.cli.commands.MergeShardsCommand;
import dev.idxkit.cli.commands.ScanCommand;
import dev.idxkit.cli.commands.ServeCommand;
import dev.idxkit.core.Database;
import java.io.Console;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code idxkit} command line: parses the arguments, runs one subcommand, exits with its code.
 *
 * <p>Adding a subcommand: write one class in {@code dev.idxkit.cli.commands} annotated with
 * {@code @Command} (a description that says what it does, a footer with an example, the exit-code
 * list from {@link ExitCodes}), implementing {@code Callable<Integer>}, with a constructor taking
 * the {@link Session} if it needs the Ctrl-C guard or progress; then list it in {@code subcommands}
 * below. Failures need no code in the command: throw the core's typed exceptions ({@code
 * InvalidInputException} for bad input) and {@link Failures} prints one line and picks the code.
 *
 * <p>Parsing rules: POSIX clustering of short options is off, so a later command can declare
 * OpenEdge-style single-dash names such as {@code -SG} or {@code -TB} and they are not read as
 * {@code -S -G}; {@code @file} expansion is off (a key value may start with {@code @}); enum values
 * are case-insensitive.
 */
@Command(
    name = "idxkit",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Embedded B+tree store tools: create a database, look at it, check it, read it out."
          + " Run 'idxkit COMMAND --help' for what a command does, an example, and its options."
    },
    footer = {
      "",
      "Example:",
      "  idxkit create shop.db --tpch && idxkit info shop.db",
      "",
      "Shell completion (bash/zsh): source <(idxkit generate-completion)"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      ExitCodes.OK_LINE,
      ExitCodes.FAILED_LINE,
      ExitCodes.BAD_INPUT_LINE,
      ExitCodes.INTERRUPTED_LINE
    })
public final class Main implements Callable<Integer> {
  /**
   * The subcommands, in the order help lists them. Not in {@code @Command(subcommands)}: picocli
   * builds the model of every listed command by reflection when the tree is made, 0.13 s of a 0.5 s
   * {@code idxkit info} (async-profiler, wall clock), so {@link #run} adds only the command named
   * first on the line, and the whole list when the line names none of them (help, a mistyped
   * command, an option first) or asks for the completion script, which describes them all.
   */
  static final List<Class<?>> SUBCOMMANDS =
      List.of(
          DemoCommand.class,
          CreateCommand.class,
          LoadCommand.class,
          IdxbuildCommand.class,
          CheckCommand.class,
          AnalyzeCommand.class,
          InfoCommand.class,
          GetCommand.class,
          ScanCommand.class,
          DumpCommand.class,
          MergeShardsCommand.class,
          ServeCommand.class,
          BenchCommand.class,
          AutoComplete.GenerateCompletion.class,
          CdsTrainingCommand.class);

  private static final String JNR_ASM = "jnr.ffi.asm.enabled";

  @Spec CommandSpec spec;

  /**
   * Milliseconds between plain progress lines: {@code IDXKIT_PROGRESS_INTERVAL_MS} (for logs that
   * want more, or tests that want them sooner), else {@link Session#PLAIN_INTERVAL_MILLIS}.
   */
  static long plainInterval() {
    String v = System.getenv("IDXKIT_PROGRESS_INTERVAL_MS");
    if (v != null) {
      try {
        long ms = Long.parseLong(v.strip());
        if (ms >= 10) {
          return ms;
        }
      } catch (NumberFormatException e) {
        // fall through to the default; a bad value must not stop the command
      }
    }
    return Session.PLAIN_INTERVAL_MILLIS;
  }

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "no command given");
  }

  public static void main(String[] args) {
    if (System.getProperty(JNR_ASM) == null) {
      // jnr-ffi's default loader writes a class for each native binding with ASM, which the JVM
      // then interprets and compiles: 70 ms of the 82 ms madvise's binding took to load in `info`
      // (async-profiler, wall clock). Its reflection loader binds in less; each call costs more
      // (not measured), where the store makes a few calls per scan chunk or checkpoint step
      // (madvise, sync_file_range). `idxkit info`, ten pairs: median 0.385 against 0.41 s. A
      // setting of this process only; a program that embeds the store keeps jnr-ffi's default.
      System.setProperty(JNR_ASM, "false");
    }
    List<Class<?>> named = named(args);
    if (named.size() == 1) {
      // A command is named: the database binding loads beside picocli's reading of the command's
      // model (about 0.1 s each) instead of after it. Help or a mistyped command skips it.
      Database.preloadInBackground();
    }
    PrintWriter out =
        new PrintWriter(
            new OutputStreamWriter(
                new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8),
            false);
    PrintWriter err =
        new PrintWriter(
            new OutputStreamWriter(
                new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8),
            true);
    InterruptGuard guard = InterruptGuard.install(err);
    int code;
    try (Session session =
        new Session(
            guard,
            stdoutIsTerminal(),
            new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8),
            StandardCharsets.UTF_8,
            System::nanoTime,
            plainInterval())) {
      code = run(session, out, err, named, args);
    }
    guard.finished();
    if (guard.interrupted()) {
      // The JVM is already exiting (status 130) and System.exit would wait for it forever.
      return;
    }
    System.exit(code);
  }

  /** Runs one command line in this JVM; returns the exit code. Output is flushed on return. */
  public static int run(Session session, PrintWriter out, PrintWriter err, String... args) {
    return run(session, out, err, named(args), args);
  }

  /** {@link #run} with the subcommands {@link #named} already chose for {@code args}. */
  private static int run(
      Session session,
      PrintWriter out,
      PrintWriter err,
      List<Class<?>> subcommands,
      String... args) {
    try {
      return commandLine(session, out, err, subcommands).execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** The configured command tree, every subcommand in it (for tests and completion scripts). */
  public static CommandLine commandLine(Session session, PrintWriter out, PrintWriter err) {
    return commandLine(session, out, err, SUBCOMMANDS);
  }

  /**
   * The one subcommand {@code args} starts with, none for a line that only asks for the version (no
   * command's model is read for it), or all of them when it starts with none (or with the
   * completion script's, which lists them all).
   */
  static List<Class<?>> named(String... args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      return List.of();
    }
    if (args.length > 0) {
      for (Class<?> c : SUBCOMMANDS) {
        Command a = c.getAnnotation(Command.class);
        if (a.name().equals(args[0]) || List.of(a.aliases()).contains(args[0])) {
          return c == AutoComplete.GenerateCompletion.class ? SUBCOMMANDS : List.of(c);
        }
      }
    }
    return SUBCOMMANDS;
  }

  private static CommandLine commandLine(
      Session session, PrintWriter out, PrintWriter err, List<Class<?>> subcommands) {
    SessionFactory factory = new SessionFactory(session);
    CommandLine cl = new CommandLine(new Main(), factory);
    for (Class<?> c : subcommands) {
      cl.addSubcommand(new CommandLine(c, factory));
    }
    CommandLine completion = cl.getSubcommands().get("generate-completion");
    if (completion != null) {
      // picocli hides generate-completion by default; a DBA should find it in the command list.
      completion
          .getCommandSpec()
          .usageMessage()
          .hidden(false)
          .description("Print a bash/zsh completion script: source <(idxkit generate-completion)");
    }
    configure(cl, session, out, err);
    return cl;
  }

  /**
   * Applies the parsing rules, streams and failure handling to {@code cl} and every subcommand it
   * has now; call again after adding one.
   */
  static void configure(CommandLine cl, Session session, PrintWriter out, PrintWriter err) {
    Failures failures = new Failures(session.guard());
    cl.setPosixClusteredShortOptionsAllowed(false);
    cl.setExpandAtFiles(false);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setUsageHelpAutoWidth(true); // help as wide as the terminal (80 columns when unknown)
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler(failures);
    cl.setParameterExceptionHandler(failures);
  }

  /**
   * True when stdout is a terminal. {@code System.console()} is non-null only for a terminal up to
   * JDK 21; from JDK 22 it may exist for a pipe too, and {@code Console.isTerminal()} tells.
   */
  static boolean stdoutIsTerminal() {
    Console c = System.console();
    if (c == null) {
      return false;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(c);
    } catch (ReflectiveOperationException e) {
      return true; // JDK 17..21: a console exists only for a terminal
    }
  }

  /** Creates commands, passing the session to those whose constructor takes one. */
  private static final class SessionFactory implements IFactory {
    private final Session session;

    SessionFactory(Session session) {
      this.session = session;
    }

    @Override
    public <K> K create(Class<K> cls) throws Exception {
      Constructor<K> c;
      try {
        c = cls.getDeclaredConstructor(Session.class);
      } catch (NoSuchMethodException e) {
        return CommandLine.defaultFactory().create(cls);
      }
      c.setAccessible(true);
      return c.newInstance(session);
    }
  }
}
