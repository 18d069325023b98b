package dev.idxkit.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs idxkit commands in this JVM with captured output, a detached Ctrl-C guard (no shutdown hook)
 * and a clock the test moves, so command tests take milliseconds and wait for nothing.
 */
public final class CliHarness {
  public final AtomicLong nanos = new AtomicLong();
  public final InterruptGuard guard;
  private final StringWriter errText = new StringWriter();
  private final PrintWriter err = new PrintWriter(errText, true);
  private final ByteArrayOutputStream barBytes = new ByteArrayOutputStream();

  public CliHarness() {
    guard = InterruptGuard.detached(err);
  }

  /** What one run printed and returned. */
  public record Result(int exit, String out, String err) {
    public List<String> errLines() {
      return err.isEmpty() ? List.of() : List.of(err.split("\\R"));
    }

    public List<String> outLines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\\R"));
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  public Result run(String... args) {
    StringWriter outText = new StringWriter();
    errText.getBuffer().setLength(0);
    try (Session s =
        new Session(
            guard,
            false,
            new PrintStream(barBytes, true, StandardCharsets.UTF_8),
            StandardCharsets.UTF_8,
            nanos::get,
            Session.PLAIN_INTERVAL_MILLIS)) {
      int code = Main.run(s, new PrintWriter(outText), err, args);
      return new Result(code, outText.toString(), errText.toString());
    } finally {
      if (guard.interrupted()) {
        Thread.interrupted(); // the guard interrupted the test's own thread; the run has ended
      }
    }
  }
}
