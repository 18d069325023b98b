package dev.idxkit.cli.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.output.Json;
import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.ProblemText;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request and its response on one connection. Whoever produces the answer - the event loop for
 * a refusal, a read or write thread for the rest - calls exactly one of the {@code send}/{@code
 * fail} methods, or for a stream {@link #sendHead} then {@link #sendChunk}s then {@link
 * #endStream}/{@link #abort}. When the last byte has been handed to the socket, the exchange
 * records its metrics and tells the connection's {@link RequestHandler}, which starts the next
 * queued request or closes the connection.
 *
 * <p>Error bodies are one JSON object, {@code {"error": "...", "status": 404}}, the message naming
 * what was given and what was expected (the core's exception messages are written that way).
 */
final class Exchange {
  static final String JSON = "application/json; charset=utf-8";
  static final String JSON_LINES = "application/x-ndjson; charset=utf-8";

  private final ChannelHandlerContext ctx;
  private final RequestHandler owner;
  private final ServerMetrics metrics;
  private final ServerLog log;
  private final boolean keepAlive;
  private final String method;
  private final String uri;
  private final long startNanos = System.nanoTime();
  private final AtomicBoolean answered = new AtomicBoolean();
  private final AtomicBoolean recorded = new AtomicBoolean();
  private volatile Endpoint endpoint = Endpoint.OTHER;
  private volatile boolean close;
  private volatile int status;
  private volatile RowStream stream;

  Exchange(
      ChannelHandlerContext ctx,
      RequestHandler owner,
      ServerMetrics metrics,
      ServerLog log,
      boolean keepAlive,
      String method,
      String uri) {
    this.ctx = ctx;
    this.owner = owner;
    this.metrics = metrics;
    this.log = log;
    this.keepAlive = keepAlive;
    this.method = method;
    this.uri = uri;
  }

  ChannelHandlerContext ctx() {
    return ctx;
  }

  void endpoint(Endpoint e) {
    endpoint = e;
  }

  /** Close the connection after this response (a malformed request, a refused body). */
  void closeAfter() {
    close = true;
  }

  void sendJson(HttpResponseStatus st, ObjectNode body) {
    StringWriter sw = new StringWriter();
    Json.printLine(new PrintWriter(sw), body);
    send(st, JSON, sw.toString(), null, false);
  }

  void sendText(HttpResponseStatus st, String contentType, String body) {
    send(st, contentType, body, null, false);
  }

  void sendError(HttpResponseStatus st, String message, String allow, boolean askForToken) {
    ObjectNode o = Json.object();
    o.put("error", message);
    o.put("status", st.code());
    StringWriter sw = new StringWriter();
    Json.printLine(new PrintWriter(sw), o);
    send(st, JSON, sw.toString(), allow, askForToken);
  }

  /** Answers with the status and message an exception stands for; logs what is not the client's. */
  void fail(Throwable t) {
    if (answered.get()) {
      // Too late for a status: the head went out. Cut the response short so the client knows.
      abort(ProblemText.of(t), t);
      return;
    }
    if (t instanceof HttpError e) {
      sendError(e.status(), e.getMessage(), e.allow(), false);
      return;
    }
    HttpResponseStatus st;
    // In words, never the exception's class: the client and the log read it; the class is in the
    // stack trace the log adds under --verbose.
    String message = ProblemText.of(t);
    if (t instanceof DuplicateKeyException) {
      st = HttpResponseStatus.CONFLICT;
    } else if (t instanceof IdxkitException e && e.isBadInput()) {
      st = HttpResponseStatus.BAD_REQUEST;
    } else if (t instanceof CorruptPageException || t instanceof CorruptDatabaseException) {
      st = HttpResponseStatus.INTERNAL_SERVER_ERROR;
      message += "; run 'idxkit check DB' for a full report";
      log.failure(method + " " + uri + " -> 500: " + message, t);
    } else {
      st = HttpResponseStatus.INTERNAL_SERVER_ERROR;
      message = "internal error: " + message;
      log.failure(method + " " + uri + " -> 500: " + message, t);
    }
    sendError(st, message.strip().replaceAll("\\s*\\R\\s*", " "), null, false);
  }

  private void send(
      HttpResponseStatus st, String contentType, String body, String allow, boolean askForToken) {
    if (!answered.compareAndSet(false, true)) {
      throw new IllegalStateException("second answer to " + method + " " + uri);
    }
    ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, st, content);
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    r.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
    if (allow != null) {
      r.headers().set(HttpHeaderNames.ALLOW, allow);
    }
    if (askForToken) {
      r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"idxkit\"");
    }
    HttpUtil.setContentLength(r, content.readableBytes());
    status = st.code();
    boolean closing = connectionHeader(r);
    ctx.writeAndFlush(r).addListener(f -> finished(f.isSuccess() && !closing));
  }

  /** Starts a streamed response; the caller then writes chunks, one at a time. */
  ChannelFuture sendHead(HttpResponse head, RowStream stream) {
    if (!answered.compareAndSet(false, true)) {
      throw new IllegalStateException("second answer to " + method + " " + uri);
    }
    this.stream = stream;
    status = head.status().code();
    connectionHeader(head);
    return ctx.writeAndFlush(head);
  }

  ChannelFuture sendChunk(HttpContent chunk) {
    return ctx.writeAndFlush(chunk);
  }

  /** The stream's last chunk was written (or failed to be). */
  void endStream(boolean ok) {
    stream = null;
    finished(ok && !close);
  }

  /** Cuts a stream short: the connection is closed, so the client sees an incomplete response. */
  void abort(String why) {
    abort(why, null);
  }

  /** As {@link #abort(String)}, with the failure that cut the response short, for the log. */
  void abort(String why, Throwable cause) {
    if (recorded.get()) {
      return;
    }
    metrics.streamAborted();
    if (why != null) {
      log.failure(method + " " + uri + " -> response cut short: " + why, cause);
    }
    stream = null;
    close = true;
    ctx.close();
    finished(false);
  }

  /** Sets {@code Connection} for the response; true when the connection closes after it. */
  private boolean connectionHeader(HttpResponse r) {
    if (!keepAlive || owner.closing()) {
      close = true;
    }
    HttpUtil.setKeepAlive(r, !close);
    return close;
  }

  private void finished(boolean keepOpen) {
    if (!recorded.compareAndSet(false, true)) {
      return;
    }
    metrics.record(endpoint, status, System.nanoTime() - startNanos);
    if (ctx.executor().inEventLoop()) {
      owner.exchangeDone(this, keepOpen);
    } else {
      ctx.executor().execute(() -> owner.exchangeDone(this, keepOpen));
    }
  }

  /** The socket can take more: a waiting stream goes on. Event loop only. */
  void writable() {
    RowStream s = stream;
    if (s != null) {
      s.writable();
    }
  }

  /** The connection closed under the exchange. Event loop only. */
  void channelClosed() {
    RowStream s = stream;
    if (s != null) {
      s.cancel();
    }
  }
}
