package dev.idxkit.cli.server;

import dev.idxkit.core.Database;
import dev.idxkit.core.InvalidInputException;

/**
 * The read-only server a long job starts beside itself ({@code idxkit idxbuild ... --http :PORT},
 * {@code idxkit load ... --http :PORT}): {@code GET /} shows the job's phases, {@code GET
 * /v1/status} gives them as JSON, {@code /metrics} adds job gauges, and if a database is given the
 * read endpoints serve it too (readers see the published state; the job's unpublished pages are
 * invisible to them).
 *
 * <p>Wiring it into a command: start a {@link JobProgress}, open this server beside the job with
 * try-with-resources (the commands do it through {@code DbCommand.progressServer}), feed the job
 * through {@link RebuildProgress} or {@link LoadJobProgress}, and on an exception call {@link
 * JobProgress#failed(String)} before rethrowing (a failing job tells no listener).
 */
public final class ProgressServer {
  private ProgressServer() {}

  /** A bind host and a port, as {@code --http} takes them. */
  public record Listen(String bind, int port) {}

  /**
   * Parses {@code --http}'s value: {@code :PORT} (loopback), {@code HOST:PORT}, {@code
   * [IPv6]:PORT}, or a bare {@code PORT}. Port 0 picks a free port.
   */
  public static Listen parseListen(String text) {
    String t = text == null ? "" : text.strip();
    int colon = t.lastIndexOf(':');
    String host = colon < 0 ? "" : t.substring(0, colon);
    String port = colon < 0 ? t : t.substring(colon + 1);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.isEmpty()) {
      host = ServerConfig.DEFAULT_BIND;
    }
    try {
      int p = Integer.parseInt(port);
      if (p >= 0 && p <= 65_535) {
        return new Listen(host, p);
      }
    } catch (NumberFormatException e) {
      // reported below with the expected forms
    }
    throw new InvalidInputException(
        "--http : '" + text + "' (expected: :PORT, HOST:PORT or PORT, with PORT 0..65535)");
  }

  /**
   * Starts a read-only server with the default limits on {@code listen}.
   *
   * @param job the job to show
   * @param db the database to serve read-only beside it, or null for the progress endpoints only
   */
  public static IdxkitServer start(Listen listen, JobProgress job, Database db, ServerLog log) {
    ServerConfig c = ServerConfig.defaults().withListen(listen.bind(), listen.port());
    return IdxkitServer.start(c, db, job, log);
  }

  /** As {@link #start(Listen, JobProgress, Database, ServerLog)} with host and port apart. */
  public static IdxkitServer start(
      String bind, int port, JobProgress job, Database db, ServerLog log) {
    return start(new Listen(bind, port), job, db, log);
  }
}
