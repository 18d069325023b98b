package dev.idxkit.crash;

import java.io.PrintStream;
import java.util.List;

/**
 * The line protocol between a crash child and the runner: one line per event on the child's stdout,
 * flushed before the child goes on, so that a line the parent reads is a fact about the past even
 * if the child dies a microsecond later (SIGKILL does not discard what is already in the pipe).
 *
 * <pre>
 * OPEN              the JVM is up; opening the database comes next
 * READY &lt;u&gt;         open returned; the database holds units 1..u
 * BEGIN &lt;n&gt;         unit n started (the only unit that may be partly written until ACK n)
 * ACK &lt;n&gt;           unit n's commit() / publish() returned: it must survive any kill from now on
 * PHASE &lt;name&gt;      the child enters a named step (checkpoint, publish, bulk-begin, ...), so the
 *                   runner can tell where a kill landed
 * </pre>
 *
 * Anything else on stdout (a library's banner) is kept for diagnostics and otherwise ignored.
 *
 * @param kind the first word; {@link #OTHER} for a line outside the protocol
 * @param unit the unit number of READY, BEGIN and ACK lines, else -1
 * @param text the whole line
 */
record ChildLine(String kind, long unit, String text) {
  static final String OPEN = "OPEN";
  static final String READY = "READY";
  static final String BEGIN = "BEGIN";
  static final String ACK = "ACK";
  static final String PHASE = "PHASE";
  static final String OTHER = "?";

  static ChildLine parse(String line) {
    String[] w = line.trim().split(" ", 2);
    switch (w[0]) {
      case OPEN:
        return new ChildLine(OPEN, -1, line);
      case READY, BEGIN, ACK:
        try {
          return new ChildLine(w[0], Long.parseLong(w[1].trim()), line);
        } catch (RuntimeException e) {
          return new ChildLine(OTHER, -1, line);
        }
      case PHASE:
        return w.length == 2 ? new ChildLine(PHASE, -1, line) : new ChildLine(OTHER, -1, line);
      default:
        return new ChildLine(OTHER, -1, line);
    }
  }

  boolean is(String k) {
    return kind.equals(k);
  }

  /**
   * Where the child was when it printed this line and had not printed another: the step a kill
   * right after it lands in.
   */
  String phase() {
    switch (kind) {
      case OPEN:
        return "startup";
      case BEGIN:
        return "unit";
      case PHASE:
        return text.trim().substring(PHASE.length()).trim();
      default:
        return "between units";
    }
  }

  /** The child's side: prints protocol lines and flushes each one. */
  static final class Out {
    private final PrintStream out;

    Out(PrintStream out) {
      this.out = out;
    }

    void open() {
      line(OPEN);
    }

    void ready(long units) {
      line(READY + " " + units);
    }

    void begin(long unit) {
      line(BEGIN + " " + unit);
    }

    void ack(long unit) {
      line(ACK + " " + unit);
    }

    void phase(String name) {
      line(PHASE + " " + name);
    }

    /**
     * A line outside the protocol (a campaign's own facts for its model: the roots a rebuild
     * published, the leftovers it deleted); it must not start with a protocol word.
     */
    void say(String text) {
      String first = text.strip().split(" ", 2)[0];
      if (List.of(OPEN, READY, BEGIN, ACK, PHASE).contains(first)) {
        throw new IllegalArgumentException("say : '" + text + "' (expected: not a protocol line)");
      }
      line(text);
    }

    private void line(String s) {
      out.println(s);
      out.flush();
      if (out.checkError()) {
        // The parent stopped reading: nobody will see an ACK, so acknowledging more is pointless.
        throw new IllegalStateException("stdout closed; the crash runner is gone");
      }
    }
  }
}
