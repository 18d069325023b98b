package dev.idxkit.crash;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@code idxbuild} child's own record of its rebuilds, so that a new child knows how many units
 * the database holds without being told: a rebuild writes nothing the model could count (its
 * entries are those of the trees it replaces), only new roots.
 *
 * <pre>
 * BEGIN n name=root,name=root,...   before rebuild n starts: the roots it may replace
 * DONE n name=root,...              after rebuild n was published: the roots it left
 * </pre>
 *
 * A line reaches the OS before the step it describes (SIGKILL keeps what the OS has), and a torn
 * last line is ignored. {@link #recover}: the last DONE is a unit the database holds; a BEGIN after
 * it is a rebuild the kill interrupted, which the database holds if and only if its indexes' roots
 * moved - all of them, and no other index's (a publish is one meta write), otherwise the database
 * is neither before nor after it and recovery fails.
 */
final class RebuildJournal {
  private final Path file;

  RebuildJournal(Path file) {
    this.file = file;
  }

  /** Units the database holds given its current {@code roots}; records a found publish as DONE. */
  long recover(Map<String, Long> roots, IdxbuildWorkload w) {
    long done = 0;
    long begun = 0;
    Map<String, Long> before = null;
    List<String> lines;
    try {
      lines = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (String l : lines) {
      String[] w3 = l.split(" ", 3);
      if (w3.length != 3 || !l.endsWith(";")) {
        continue; // torn by the kill
      }
      long n = Long.parseLong(w3[1]);
      if (w3[0].equals("DONE")) {
        done = Math.max(done, n);
      } else if (w3[0].equals("BEGIN")) {
        begun = n;
        before = parse(w3[2]);
      }
    }
    if (begun != done + 1) {
      return done;
    }
    Set<String> rebuilt = w.plan(begun).indexes();
    if (roots.equals(before)) {
      return done;
    }
    if (!IdxbuildModel.movedExactly(before, roots, rebuilt)) {
      throw new IllegalStateException(
          "rebuild "
              + begun
              + " of "
              + rebuilt
              + " began with roots "
              + before
              + " and the database now has "
              + roots
              + ": neither before nor after it");
    }
    done(begun, roots);
    return begun;
  }

  void begin(long n, Map<String, Long> roots) {
    append("BEGIN " + n + " " + format(roots) + ";");
  }

  void done(long n, Map<String, Long> roots) {
    append("DONE " + n + " " + format(roots) + ";");
  }

  private void append(String line) {
    try {
      Files.writeString(
          file,
          line + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code name=root,...} in name order. */
  static String format(Map<String, Long> roots) {
    StringBuilder b = new StringBuilder();
    for (var e : new TreeMap<>(roots).entrySet()) {
      b.append(b.length() == 0 ? "" : ",").append(e.getKey()).append('=').append(e.getValue());
    }
    return b.toString();
  }

  static Map<String, Long> parse(String text) {
    Map<String, Long> out = new TreeMap<>();
    String t = text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
    for (String kv : t.split(",")) {
      int eq = kv.indexOf('=');
      out.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
    }
    return out;
  }
}
