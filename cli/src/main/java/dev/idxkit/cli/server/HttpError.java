package dev.idxkit.cli.server;

import dev.idxkit.core.IdxkitException;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A request the server refuses with a definite status: unknown endpoint or table, a bad parameter,
 * a write to a read-only server. The message is what the client reads in the JSON error body, so it
 * names what was given and what was expected, as every idxkit error does.
 */
public final class HttpError extends IdxkitException {
  private static final long serialVersionUID = 1L;

  private final transient HttpResponseStatus status;
  private final String allow;

  public HttpError(HttpResponseStatus status, String message) {
    this(status, message, null, null);
  }

  HttpError(HttpResponseStatus status, String message, String allow, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.allow = allow;
  }

  /** 405 for a known path and a method it does not take; {@code allow} lists those it takes. */
  static HttpError methodNotAllowed(String method, String path, String allow) {
    return new HttpError(
        HttpResponseStatus.METHOD_NOT_ALLOWED,
        method + " " + path + " : method not allowed (expected: " + allow + ")",
        allow,
        null);
  }

  public HttpResponseStatus status() {
    return status;
  }

  /** The {@code Allow} header for a 405, else null. */
  public String allow() {
    return allow;
  }

  /** A 4xx is the client's mistake. */
  @Override
  public boolean isBadInput() {
    return status.code() < 500;
  }
}
