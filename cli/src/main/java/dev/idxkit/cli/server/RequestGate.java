package dev.idxkit.cli.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Refuses a request from its headers alone, before its body is read into memory: a missing or wrong
 * bearer token (401), a method the server has no use for (405), a body announced larger than the
 * limit (413), a write to a read-only server (403). Sits between the HTTP decoder and the body
 * aggregator.
 *
 * <p>A refused request does not get its answer here: the gate swallows the request and its body
 * chunks and passes a {@link Refusal} down the pipeline in the request's place, so the request
 * handler answers it in turn (HTTP/1.1 answers pipelined requests in order). A refused request that
 * announced a body is answered with {@code Connection: close}: the client may not send the body
 * after a final status, and the decoder would then read its next request as body bytes.
 */
final class RequestGate extends ChannelInboundHandlerAdapter {
  /** What the request handler answers in place of a refused request. */
  record Refusal(
      HttpResponseStatus status,
      String message,
      boolean keepAlive,
      String allow,
      boolean askForToken) {}

  static final String ALLOWED_METHODS = "GET, POST";

  private final BearerToken token;
  private final boolean writable;
  private final long maxBody;
  private boolean discarding;

  RequestGate(BearerToken token, boolean writable, long maxBody) {
    this.token = token;
    this.writable = writable;
    this.maxBody = maxBody;
  }

  /** The 413 for a body over the limit, also what the aggregator reports for chunked bodies. */
  static Refusal tooLarge(long maxBody, String what) {
    return new Refusal(
        HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
        what + " (expected: at most " + maxBody + " bytes; see --max-body)",
        false,
        null,
        false);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof HttpRequest req && req.decoderResult().isSuccess()) {
      Refusal r = check(req);
      if (r != null) {
        discarding = !(msg instanceof LastHttpContent);
        ReferenceCountUtil.release(msg);
        ctx.fireChannelRead(r);
        return;
      }
    } else if (discarding && msg instanceof HttpContent) {
      if (msg instanceof LastHttpContent) {
        discarding = false;
      }
      ReferenceCountUtil.release(msg);
      return;
    }
    ctx.fireChannelRead(msg);
  }

  private Refusal check(HttpRequest req) {
    boolean keepAlive = HttpUtil.isKeepAlive(req) && !announcesBody(req);
    if (token != null && !token.matches(req.headers().get(HttpHeaderNames.AUTHORIZATION))) {
      return new Refusal(
          HttpResponseStatus.UNAUTHORIZED,
          "missing or wrong bearer token (expected: header 'Authorization: Bearer TOKEN' with"
              + " the token of the server's --token-file)",
          keepAlive,
          null,
          true);
    }
    HttpMethod m = req.method();
    if (!m.equals(HttpMethod.GET) && !m.equals(HttpMethod.POST)) {
      return new Refusal(
          HttpResponseStatus.METHOD_NOT_ALLOWED,
          "method " + m + " (expected: " + ALLOWED_METHODS + ")",
          keepAlive,
          ALLOWED_METHODS,
          false);
    }
    long length = HttpUtil.getContentLength(req, -1L);
    if (length > maxBody) {
      return tooLarge(maxBody, "request body of " + length + " bytes");
    }
    if (m.equals(HttpMethod.POST) && !writable) {
      return new Refusal(
          HttpResponseStatus.FORBIDDEN,
          "POST "
              + path(req)
              + " : the server is read-only (start it with --writable to accept"
              + " writes)",
          keepAlive,
          null,
          false);
    }
    return null;
  }

  private static boolean announcesBody(HttpRequest req) {
    return HttpUtil.isTransferEncodingChunked(req) || HttpUtil.getContentLength(req, 0L) > 0;
  }

  private static String path(HttpRequest req) {
    String uri = req.uri();
    int q = uri.indexOf('?');
    return q < 0 ? uri : uri.substring(0, q);
  }
}
