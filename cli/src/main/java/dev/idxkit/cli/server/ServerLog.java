package dev.idxkit.cli.server;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Where the server writes the one line it has to say about something that went wrong on its side (a
 * 500, a stream cut short). Client mistakes (4xx) are answered, not logged. The line says the
 * problem in words; the exception's stack trace (with its class) follows only when the operator
 * asked for it ({@code --verbose}).
 */
@FunctionalInterface
public interface ServerLog {
  ServerLog NONE = line -> {};

  void line(String text);

  /** The line about a failure; {@code t} is what caused it, for a stack trace where asked for. */
  default void failure(String text, Throwable t) {
    line(text);
  }

  /** Lines on {@code err}, each stamped with the UTC time to the millisecond; no stack traces. */
  static ServerLog to(PrintWriter err) {
    return to(err, false);
  }

  /**
   * Lines on {@code err}, each stamped with the UTC time to the millisecond; with {@code traces}, a
   * failure's line is followed by its stack trace.
   */
  static ServerLog to(PrintWriter err, boolean traces) {
    return new ServerLog() {
      @Override
      public void line(String text) {
        failure(text, null);
      }

      @Override
      public void failure(String text, Throwable t) {
        synchronized (err) {
          err.println(Instant.now().truncatedTo(ChronoUnit.MILLIS) + " idxkit serve: " + text);
          if (traces && t != null) {
            t.printStackTrace(err);
          }
          err.flush();
        }
      }
    };
  }
}
