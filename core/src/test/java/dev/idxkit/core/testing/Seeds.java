package dev.idxkit.core.testing;

import java.util.SplittableRandom;

/**
 * One seed per randomized test: {@code -Dtests.seed=N} fixes it, otherwise it is drawn once and
 * printed, with the command that reproduces the run, whenever a test reports it.
 */
public final class Seeds {
  private Seeds() {}

  /** The seed for this run: {@code tests.seed} if set, else a fresh random one. */
  public static long seed() {
    String s = System.getProperty("tests.seed");
    if (s != null && !s.isBlank()) {
      return Long.parseLong(s.trim());
    }
    return new SplittableRandom().nextLong();
  }

  public static SplittableRandom random(long seed) {
    return new SplittableRandom(seed);
  }

  /**
   * A line for failure messages: the seed and how to rerun {@code testClass} with it, plus {@code
   * extra} system properties (e.g. {@code "-Dcrash.iterations=10"}). A class named {@code *IT} runs
   * under Failsafe, so it is selected with {@code -Dit.test} and Surefire runs nothing.
   */
  public static String reproduce(long seed, Class<?> testClass, String... extra) {
    String name = testClass.getSimpleName();
    String select =
        name.endsWith("IT")
            ? "-Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=" + name
            : "-Dsurefire.failIfNoSpecifiedTests=false -Dtest=" + name;
    StringBuilder b =
        new StringBuilder("seed ")
            .append(seed)
            .append(" (reproduce: ./mvnw -B -pl ")
            .append(moduleOf(testClass))
            .append(" -am verify -Dspotless.check.skip=true ")
            .append(select)
            .append(" -Dtests.seed=")
            .append(seed);
    for (String e : extra) {
      b.append(' ').append(e);
    }
    return b.append(')').toString();
  }

  private static String moduleOf(Class<?> c) {
    String path = c.getProtectionDomain().getCodeSource().getLocation().getPath();
    for (String m : new String[] {"src-test", "idxbuild", "loader", "cli", "jmh", "core"}) {
      if (path.contains("/" + m + "/target/")) {
        return m;
      }
    }
    return "core";
  }
}
