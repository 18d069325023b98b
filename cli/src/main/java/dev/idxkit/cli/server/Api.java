package dev.idxkit.cli.server;

import dev.idxkit.core.Database;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Routes each request to the code that answers it, on the right thread: nothing that touches the
 * database runs on an event loop (a lookup may fault a mapped page in from disk and would stall
 * every connection of that loop). Reads, scans, the schema, status, metrics and the page go to the
 * bounded pool of read threads; inserts go to the one write thread, since the store takes one
 * writer at a time anyway.
 *
 * <p>Every failure becomes an answer: {@link HttpError} with its status, the core's bad-input
 * exceptions as 400 (409 for a duplicate key), anything else as 500 with one log line (see {@link
 * Exchange#fail}). A request whose bytes did not parse as HTTP is answered 400 (414 for a request
 * line over the limit, 431 for headers over it) and its connection closed, since the decoder cannot
 * find where the next request would start.
 */
final class Api {
  private final ServerConfig config;
  private final Database db;
  private final JobProgress job;
  private final ServerMetrics metrics;
  private final ConnectionGuard.Connections connections;
  private final Executor readers;
  private final Executor writer;
  private final ServerLog log;
  private final Transport transport;
  private final long startNanos = System.nanoTime();
  private volatile String url = "";

  Api(
      ServerConfig config,
      Database db,
      JobProgress job,
      ServerMetrics metrics,
      ConnectionGuard.Connections connections,
      Executor readers,
      Executor writer,
      ServerLog log,
      Transport transport) {
    this.config = config;
    this.db = db;
    this.job = job;
    this.metrics = metrics;
    this.connections = connections;
    this.readers = readers;
    this.writer = writer;
    this.log = log;
    this.transport = transport;
  }

  /** Answers {@code msg} (a request or a refusal); runs on the event loop and releases it. */
  void handle(Exchange ex, Object msg) {
    if (msg instanceof RequestGate.Refusal r) {
      if (!r.keepAlive()) {
        ex.closeAfter();
      }
      ex.sendError(r.status(), r.message(), r.allow(), r.askForToken());
      return;
    }
    FullHttpRequest req = (FullHttpRequest) msg;
    try {
      if (req.decoderResult().isFailure()) {
        ex.closeAfter();
        Throwable cause = req.decoderResult().cause();
        ex.sendError(malformedStatus(cause), malformedMessage(cause), null, false);
        return;
      }
      Route route = Route.match(req.method(), req.uri());
      ex.endpoint(route.endpoint());
      if (route.endpoint() == Endpoint.INSERT) {
        byte[] body = ByteBufUtil.getBytes(req.content());
        submit(writer, ex, () -> insert(ex, route, body));
      } else {
        submit(readers, ex, () -> read(ex, route));
      }
    } catch (RuntimeException e) {
      ex.fail(e);
    } finally {
      req.release();
    }
  }

  private void submit(Executor executor, Exchange ex, Runnable work) {
    try {
      executor.execute(
          () -> {
            try {
              work.run();
            } catch (Throwable t) {
              ex.fail(t);
            }
          });
    } catch (RejectedExecutionException e) {
      ex.closeAfter();
      ex.sendError(
          HttpResponseStatus.SERVICE_UNAVAILABLE, "the server is shutting down", null, false);
    }
  }

  private void read(Exchange ex, Route route) {
    switch (route.endpoint()) {
      case PAGE ->
          ex.sendText(HttpResponseStatus.OK, "text/html; charset=utf-8", ProgressPage.render(this));
      case STATUS -> ex.sendJson(HttpResponseStatus.OK, StatusJson.build(this));
      case METRICS ->
          ex.sendText(HttpResponseStatus.OK, MetricsText.CONTENT_TYPE, MetricsText.render(this));
      case TABLES -> ex.sendJson(HttpResponseStatus.OK, SchemaJson.tables(database()));
      case TABLE ->
          ex.sendJson(
              HttpResponseStatus.OK,
              SchemaJson.table(database(), SchemaJson.table(database(), route.table())));
      case LOOKUP, SCAN -> IndexReads.answer(ex, database(), route, readers, metrics);
      default -> throw new IllegalStateException("not a read: " + route.endpoint());
    }
  }

  private void insert(Exchange ex, Route route, byte[] body) {
    ex.sendJson(HttpResponseStatus.OK, RowInserts.insert(database(), route.table(), body, metrics));
  }

  /** The database, or 404 on a server that only reports a job's progress. */
  Database database() {
    if (db == null) {
      throw new HttpError(
          HttpResponseStatus.NOT_FOUND,
          "this server serves no database: it reports the progress of a job (expected: GET /,"
              + " /v1/status, /metrics)");
    }
    return db;
  }

  private static HttpResponseStatus malformedStatus(Throwable cause) {
    if (cause instanceof TooLongHttpLineException) {
      return HttpResponseStatus.REQUEST_URI_TOO_LONG;
    }
    if (cause instanceof TooLongHttpHeaderException) {
      return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
    }
    return HttpResponseStatus.BAD_REQUEST;
  }

  private String malformedMessage(Throwable cause) {
    if (cause instanceof TooLongHttpLineException) {
      return "request line longer than " + config.maxLineBytes() + " bytes (URL included)";
    }
    if (cause instanceof TooLongHttpHeaderException) {
      return "request headers longer than " + config.maxHeaderBytes() + " bytes";
    }
    String what = cause instanceof TooLongFrameException ? "too long" : "malformed";
    String m = cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage();
    return what + " HTTP request" + m.replaceAll("\\s*\\R\\s*", " ");
  }

  // ---- what the resources read ----

  ServerConfig config() {
    return config;
  }

  /** The database or null; resources that need one call {@link #database()}. */
  Database databaseOrNull() {
    return db;
  }

  JobProgress job() {
    return job;
  }

  ServerMetrics metrics() {
    return metrics;
  }

  ConnectionGuard.Connections connections() {
    return connections;
  }

  ServerLog log() {
    return log;
  }

  Transport transport() {
    return transport;
  }

  String url() {
    return url;
  }

  void url(String url) {
    this.url = url;
  }

  double uptimeSeconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
