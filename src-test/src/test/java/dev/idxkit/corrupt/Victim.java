package dev.idxkit.corrupt;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.DatabaseCheck;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.testing.FileTrees;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The JVM that opens damaged databases, so that a damaged mapping that crashes the JVM, a hang or
 * an {@code OutOfMemoryError} is an outcome the sweep records rather than the end of the test run.
 *
 * <pre>
 * Victim JOB_FILE FIRST_MUTATION
 * job file lines:  BASE name dir | GOLDEN name state query digest | FALLBACK name query digest
 *                  | SCRATCH dir | MUT mutation-line
 * stdout:          START id      then   RESULT id OUTCOME detail
 * </pre>
 *
 * For each mutation from {@code FIRST_MUTATION} on: copy the base, apply the damage, then open
 * (read -write, or read-only for a third), run {@code db.check()}, and ask every {@link Answers}
 * query, each on its own so one failure does not hide another's wrong answer. Outcomes:
 *
 * <ul>
 *   <li>{@code CORRECT} - every answer is a golden one of a single acceptable state; {@code
 *       CORRECT_FLAGGED} - the same, and the check reported the damage;
 *   <li>{@code DETECTED} - the open, or some queries, failed with an idxkit exception naming a file
 *       of the database, and every answer that did come was right;
 *   <li>{@code WRONG} - an answer matches no acceptable state (the detail says whether the check
 *       noticed); {@code UNCLEAR} - an exception that is not an idxkit one or does not say where;
 *       {@code OOM}. The parent adds {@code HANG} and {@code CRASH}. These five fail the sweep.
 * </ul>
 */
public final class Victim {
  private Victim() {}

  public static void main(String[] args) throws IOException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Map<String, Path> bases = new HashMap<>();
    Map<String, List<Map<String, String>>> golden = new HashMap<>();
    List<Mutation> mutations = new ArrayList<>();
    Path scratch = null;
    for (String l : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
      String[] f = l.split("\t", 2);
      switch (f[0]) {
        case "BASE" -> {
          String[] g = f[1].split("\t");
          bases.put(g[0], Path.of(g[1]));
        }
        case "GOLDEN" -> {
          String[] g = f[1].split("\t");
          List<Map<String, String>> states = golden.computeIfAbsent(g[0], k -> new ArrayList<>());
          int k = Integer.parseInt(g[1]);
          while (states.size() <= k) {
            states.add(new LinkedHashMap<>());
          }
          states.get(k).put(g[2], g[3]);
        }
        case "SCRATCH" -> scratch = Path.of(f[1]);
        case "MUT" -> mutations.add(Mutation.parse(f[1]));
        default -> throw new IllegalArgumentException("job line : " + l);
      }
    }
    int first = Integer.parseInt(args[1]);
    for (Mutation m : mutations) {
      if (m.id() < first) {
        continue;
      }
      out.println("START " + m.id());
      Path copy = scratch.resolve("m" + m.id());
      SweepDatabase.copyTree(bases.get(m.base()), copy);
      m.apply(copy);
      String result;
      try {
        result = evaluate(m, copy, golden.get(m.base()));
      } catch (OutOfMemoryError e) {
        result = "OOM " + e;
      }
      out.println("RESULT " + m.id() + " " + result.replaceAll("\\R", " "));
      FileTrees.delete(copy);
    }
  }

  static String evaluate(Mutation m, Path copy, List<Map<String, String>> states) {
    int last = states.size() - 1;
    // Damage to the log may cost its later transactions (the torn-tail rule): any state is right.
    int from = m.file().equals("wal") ? 0 : last;
    DatabaseOptions o = SweepDatabase.options();
    Database db;
    try {
      db = Database.open(copy, m.readOnly() ? o.readOnly() : o);
    } catch (RuntimeException e) {
      return classify(e, copy, "open");
    }
    List<String> errors = new ArrayList<>();
    String unclear = null;
    boolean flagged;
    try {
      DatabaseCheck.Report report = db.check();
      flagged = !report.clean();
    } catch (RuntimeException e) {
      String c = classify(e, copy, "check");
      if (!c.startsWith("DETECTED")) {
        unclear = c;
      }
      flagged = true;
    }
    Map<String, String> answers = new LinkedHashMap<>();
    for (Map.Entry<String, Function<Database, String>> q : Answers.queries().entrySet()) {
      try {
        answers.put(q.getKey(), Answers.digest(q.getValue().apply(db)));
      } catch (RuntimeException e) {
        String c = classify(e, copy, q.getKey());
        if (c.startsWith("DETECTED")) {
          errors.add(q.getKey());
        } else if (unclear == null) {
          unclear = c;
        }
      }
    }
    try {
      db.close();
    } catch (RuntimeException e) {
      String c = classify(e, copy, "close");
      if (!c.startsWith("DETECTED") && unclear == null) {
        unclear = c;
      }
    }
    int state = -1;
    for (int k = last; k >= from && state < 0; k--) {
      boolean all = true;
      for (var a : answers.entrySet()) {
        all &= a.getValue().equals(states.get(k).get(a.getKey()));
      }
      if (all) {
        state = k;
      }
    }
    if (state < 0) {
      List<String> wrong = new ArrayList<>();
      for (var a : answers.entrySet()) {
        if (!a.getValue().equals(states.get(last).get(a.getKey()))) {
          wrong.add(a.getKey());
        }
      }
      return "WRONG answers to "
          + wrong
          + " match no acceptable state; the check "
          + (flagged ? "reported damage" : "was clean");
    }
    if (unclear != null) {
      return unclear;
    }
    String at = state == last ? "" : " (the state after " + state + " of " + last + " log txns)";
    if (!errors.isEmpty()) {
      return "DETECTED by " + errors + at;
    }
    return (flagged ? "CORRECT_FLAGGED" : "CORRECT") + at;
  }

  /** DETECTED for an idxkit exception naming the database's files; UNCLEAR otherwise. */
  static String classify(RuntimeException e, Path copy, String step) {
    String msg = String.valueOf(e.getMessage());
    if (e instanceof IdxkitException && msg.contains(copy.toString())) {
      String m = msg.replace(copy.toString(), "DB");
      return "DETECTED at "
          + step
          + ": "
          + e.getClass().getSimpleName()
          + ": "
          + (m.length() > 160 ? m.substring(0, 160) + "..." : m);
    }
    StackTraceElement[] st = e.getStackTrace();
    return "UNCLEAR at "
        + step
        + ": "
        + e.getClass().getName()
        + ": "
        + msg
        + (st.length > 0 ? " at " + st[0] : "")
        + (e.getCause() != null ? " caused by " + e.getCause() : "");
  }
}
