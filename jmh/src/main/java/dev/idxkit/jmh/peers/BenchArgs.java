package dev.idxkit.jmh.peers;

import dev.idxkit.core.InvalidInputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code --name value} arguments of a peer experiment's {@code main}: parsed once, read by
 * typed getters that name the option, the value and what was expected when it does not fit, and
 * checked at the end so that a misspelt option is an error rather than silently ignored.
 *
 * <p>Accepted forms: {@code --name value} and {@code --name=value}. Errors are {@link
 * InvalidInputException} (a bad-input error, exit code 2 in the CLI).
 */
final class BenchArgs {
  private final Map<String, String> values = new LinkedHashMap<>();
  private final Set<String> read = new LinkedHashSet<>();

  private BenchArgs() {}

  static BenchArgs parse(String... args) {
    BenchArgs a = new BenchArgs();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--") || arg.length() == 2) {
        throw new InvalidInputException(
            "argument " + (i + 1) + " : '" + arg + "' (expected: --name value)");
      }
      String name;
      String value;
      int eq = arg.indexOf('=');
      if (eq > 0) {
        name = arg.substring(2, eq);
        value = arg.substring(eq + 1);
      } else {
        if (i + 1 >= args.length) {
          throw new InvalidInputException(arg + " : no value (expected: " + arg + " VALUE)");
        }
        name = arg.substring(2);
        value = args[++i];
      }
      if (a.values.put(name, value) != null) {
        throw new InvalidInputException("--" + name + " : given twice (expected: once)");
      }
    }
    return a;
  }

  String string(String name, String dflt) {
    read.add(name);
    return values.getOrDefault(name, dflt);
  }

  Path path(String name, Path dflt) {
    String v = string(name, null);
    return v == null ? dflt : Path.of(v);
  }

  long longValue(String name, long dflt, long min, long max) {
    String v = string(name, null);
    if (v == null) {
      return dflt;
    }
    return parseLong("--" + name, v, min, max);
  }

  int intValue(String name, int dflt, int min, int max) {
    return (int) longValue(name, dflt, min, max);
  }

  double doubleValue(String name, double dflt, double minExclusive, double max) {
    String v = string(name, null);
    if (v == null) {
      return dflt;
    }
    double x;
    try {
      x = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new InvalidInputException(
          "--" + name + " : " + v + " (expected: a number > " + minExclusive + ", <= " + max + ")");
    }
    if (!(x > minExclusive) || x > max) {
      throw new InvalidInputException(
          "--" + name + " : " + v + " (expected: > " + minExclusive + ", <= " + max + ")");
    }
    return x;
  }

  /** A byte size: digits with an optional k, m or g suffix (binary units), e.g. {@code 64m}. */
  long bytes(String name, long dflt, long min) {
    String v = string(name, null);
    if (v == null) {
      return dflt;
    }
    return parseBytes("--" + name, v, min);
  }

  static long parseBytes(String what, String v, long min) {
    String s = v.trim().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (s.endsWith("k") || s.endsWith("m") || s.endsWith("g")) {
      char c = s.charAt(s.length() - 1);
      unit = c == 'k' ? 1L << 10 : c == 'm' ? 1L << 20 : 1L << 30;
      s = s.substring(0, s.length() - 1);
    }
    long x;
    try {
      x = Math.multiplyExact(Long.parseLong(s), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new InvalidInputException(
          what + " : " + v + " (expected: a size such as 65536, 64k, 64m or 2g)");
    }
    if (x < min) {
      throw new InvalidInputException(what + " : " + v + " (expected: >= " + min + " bytes)");
    }
    return x;
  }

  /** A comma-separated list, each element checked against {@code allowed} when it is not empty. */
  List<String> list(String name, List<String> dflt, Set<String> allowed) {
    String v = string(name, null);
    if (v == null) {
      return dflt;
    }
    List<String> out = new ArrayList<>();
    for (String part : v.split(",")) {
      String p = part.strip().toLowerCase(Locale.ROOT);
      if (p.isEmpty()) {
        continue;
      }
      if (!allowed.isEmpty() && !allowed.contains(p)) {
        throw new InvalidInputException(
            "--" + name + " : '" + p + "' (expected: one of " + String.join(", ", allowed) + ")");
      }
      out.add(p);
    }
    if (out.isEmpty()) {
      throw new InvalidInputException("--" + name + " : empty (expected: a comma-separated list)");
    }
    return out;
  }

  /** {@code true}/{@code false} (also {@code yes}/{@code no}). */
  boolean bool(String name, boolean dflt) {
    String v = string(name, null);
    if (v == null) {
      return dflt;
    }
    return switch (v.strip().toLowerCase(Locale.ROOT)) {
      case "true", "yes" -> true;
      case "false", "no" -> false;
      default ->
          throw new InvalidInputException("--" + name + " : " + v + " (expected: true or false)");
    };
  }

  /** A comma-separated list of integers in {@code min..max}. */
  List<Integer> ints(String name, List<Integer> dflt, int min, int max) {
    List<Integer> out = new ArrayList<>();
    for (String p : listOrEmpty(name)) {
      out.add((int) parseLong("--" + name, p, min, max));
    }
    return out.isEmpty() ? dflt : out;
  }

  /** A comma-separated list of byte sizes ({@link #parseBytes}), each at least {@code min}. */
  List<Long> sizes(String name, List<Long> dflt, long min) {
    List<Long> out = new ArrayList<>();
    for (String p : listOrEmpty(name)) {
      out.add(parseBytes("--" + name, p, min));
    }
    return out.isEmpty() ? dflt : out;
  }

  private List<String> listOrEmpty(String name) {
    List<String> l = list(name, null, Set.of());
    return l == null ? List.of() : l;
  }

  private static long parseLong(String what, String v, long min, long max) {
    long x;
    try {
      x = Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new InvalidInputException(
          what + " : " + v + " (expected: an integer " + min + ".." + max + ")");
    }
    if (x < min || x > max) {
      throw new InvalidInputException(what + " : " + v + " (expected: " + min + ".." + max + ")");
    }
    return x;
  }

  /** Fails on any option that no getter asked for: a typo must not run the default. */
  void checkAllRead(String usage) {
    for (String name : values.keySet()) {
      if (!read.contains(name)) {
        throw new InvalidInputException(
            "--" + name + " : unknown option (expected one of: " + usage + ")");
      }
    }
  }
}
