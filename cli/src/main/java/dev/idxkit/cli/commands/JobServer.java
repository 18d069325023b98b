package dev.idxkit.cli.commands;

import dev.idxkit.cli.server.IdxkitServer;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * The {@code --http} server of a long command, closed last: with {@code --http-linger D} it stays
 * up for D after the job has ended (well or not), so the page shows the final report instead of
 * vanishing the moment the job ends. Ctrl-C during the linger ends it at once (the wait is
 * interrupted) and the command exits as it would have.
 */
final class JobServer implements AutoCloseable {
  private final IdxkitServer server;
  private final Duration linger;
  private final PrintWriter err;

  JobServer(IdxkitServer server, Duration linger, PrintWriter err) {
    this.server = server;
    this.linger = linger == null ? Duration.ZERO : linger;
    this.err = err;
  }

  IdxkitServer server() {
    return server;
  }

  @Override
  public void close() {
    try {
      if (!linger.isZero() && !linger.isNegative()) {
        err.println(
            "idxkit: the report stays at "
                + server.url()
                + " for "
                + linger.toString().substring(2).toLowerCase(java.util.Locale.ROOT)
                + " (--http-linger); Ctrl-C ends it");
        err.flush();
        try {
          Thread.sleep(linger.toMillis()); // the linger is the point: the page stays this long
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    } finally {
      server.close();
    }
  }
}
