package dev.idxkit.core.testing;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of a command line for a child JVM that runs this module's test classes: the {@code
 * java} this JVM runs, then the flags it was started with that a child needs as well - the module
 * flags ({@code --add-opens} and the like: the Chronicle Bytes flags the build gives tests) and the
 * {@code -D} system properties. Each caller adds its own heap, GC and JIT flags, the class path and
 * the main class, or takes {@link #running} for a main class on this JVM's class path.
 */
public final class JavaCommand {
  private JavaCommand() {}

  /** The {@code java} executable of this JVM. */
  public static String java() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** {@link #java()} followed by the module and {@code -D} flags of this JVM. */
  public static List<String> inheritingFlags() {
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith("--add-")
          || a.startsWith("--enable-native-access")
          || a.startsWith("--sun-misc-unsafe-memory-access")) {
        cmd.add(a);
        if (!a.contains("=") && i + 1 < args.size()) {
          cmd.add(args.get(++i)); // "--add-opens X" written as two words
        }
      } else if (a.startsWith("-D")) {
        cmd.add(a);
      }
    }
    return cmd;
  }

  /**
   * {@link #inheritingFlags()}, then this JVM's class path, {@code main} and {@code args}: a child
   * that runs a test's own main class (one to kill, or one where nothing is loaded yet).
   */
  public static List<String> running(Class<?> main, List<String> args) {
    List<String> cmd = inheritingFlags();
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(args);
    return cmd;
  }
}
