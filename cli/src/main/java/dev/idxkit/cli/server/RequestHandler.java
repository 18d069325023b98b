package dev.idxkit.cli.server;

import dev.idxkit.core.ProblemText;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * The last handler of a connection: answers its requests one at a time, in the order they came.
 *
 * <p>HTTP/1.1 lets a client send several requests before reading any answer (pipelining), and the
 * answers must come back in request order. Requests are answered on other threads, so this handler
 * queues what arrives while an answer is being produced and stops reading from the socket ({@code
 * autoRead} off) until the queue drains; a client can thus never make the server hold more than one
 * socket read's worth of requests. One {@link Exchange} at a time: when it is done, the next queued
 * request starts, or reading resumes.
 *
 * <p>Everything here runs on the connection's event loop. A connection that closes drops its queued
 * requests (releasing their buffers) and cancels a running stream.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter {
  private final Api api;
  private final ConnectionGuard guard;
  private final ArrayDeque<Object> queued = new ArrayDeque<>();
  private ChannelHandlerContext ctx;
  private Exchange current;

  RequestHandler(Api api, ConnectionGuard guard) {
    this.api = api;
    this.guard = guard;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof FullHttpRequest) && !(msg instanceof RequestGate.Refusal)) {
      ReferenceCountUtil.release(msg); // nothing else is produced above; never leak a buffer
      return;
    }
    queued.add(msg);
    if (current == null) {
      next();
    }
  }

  private void next() {
    Object msg = queued.poll();
    if (msg == null) {
      ctx.channel().config().setAutoRead(true);
      guard.idle();
      return;
    }
    ctx.channel().config().setAutoRead(false);
    guard.busy();
    boolean keepAlive =
        msg instanceof FullHttpRequest r
            ? HttpUtil.isKeepAlive(r)
            : ((RequestGate.Refusal) msg).keepAlive();
    String method = msg instanceof FullHttpRequest r ? r.method().name() : "-";
    String uri = msg instanceof FullHttpRequest r ? r.uri() : "-";
    current = new Exchange(ctx, this, api.metrics(), api.log(), keepAlive, method, uri);
    api.handle(current, msg);
  }

  /** Called on the event loop when {@code ex}'s answer is fully written. */
  void exchangeDone(Exchange ex, boolean keepOpen) {
    if (ex != current) {
      return;
    }
    current = null;
    if (!keepOpen || !ctx.channel().isActive()) {
      dropQueued();
      guard.closeGracefully();
      return;
    }
    next();
  }

  /** True once the server is shutting down: answers close their connection. */
  boolean closing() {
    return guard.closing();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    if (current != null && ctx.channel().isWritable()) {
      current.writable();
    }
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    dropQueued();
    if (current != null) {
      current.channelClosed();
    }
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!(cause instanceof IOException) && !(cause instanceof PrematureChannelClosureException)) {
      // A reset, a broken pipe or a request cut off is the client leaving; anything else is worth
      // a line.
      api.log()
          .failure(
              "connection "
                  + ctx.channel().remoteAddress()
                  + " closed after "
                  + ProblemText.of(cause),
              cause);
    }
    ctx.close();
  }

  private void dropQueued() {
    Object m;
    while ((m = queued.poll()) != null) {
      ReferenceCountUtil.release(m);
    }
  }
}
