package dev.idxkit.cli.server;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Where the server writes the one line it has to say about something that went wrong on its side (a
 * 500, a stream cut short). Client mistakes (4xx) are answered, not logged.
 */
@FunctionalInterface
public interface ServerLog {
  ServerLog NONE = line -> {};

  void line(String text);

  /** Lines on {@code err}, each stamped with the UTC time to the millisecond. */
  static ServerLog to(PrintWriter err) {
    return line -> {
      synchronized (err) {
        err.println(Instant.now().truncatedTo(ChronoUnit.MILLIS) + " idxkit serve: " + line);
        err.flush();
      }
    };
  }
}
