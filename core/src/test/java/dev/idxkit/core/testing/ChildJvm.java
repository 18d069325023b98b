package dev.idxkit.core.testing;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts {@code main} in a new JVM like this one: the same java, its {@code
 * --add-*} and {@code -D} flags (Chronicle's opens, a test's seed), and its class path. For tests
 * that kill a child or need a JVM where nothing is loaded yet.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** {@code java <this JVM's --add-* and -D flags> -cp <class path> main.getName() args...}. */
  public static List<String> command(Class<?> main, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-") || a.startsWith("-D")) {
        command.add(a);
      }
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    return command;
  }
}
