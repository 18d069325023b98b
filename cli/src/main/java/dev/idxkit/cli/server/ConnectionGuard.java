package dev.idxkit.cli.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The first handler of every connection: admits it or not, and closes it when the client is too
 * slow. It sits before the HTTP codec, so it can answer even a connection that never sent a valid
 * request, with a ready-made response written as raw bytes.
 *
 * <p>A connection is in one of three states, and each has its own clock:
 *
 * <pre>
 * IDLE       no request in progress      idleTimeout: closed quietly
 *   | first byte of a request arrives
 * RECEIVING  request partly received     requestTimeout: "408 Request Timeout", closed
 *   | {@link #busy()}: a whole request reached the handler
 * BUSY       request being answered      none (a long scan may take its time)
 *   | {@link #idle()}: response written, nothing queued
 * IDLE ...
 * </pre>
 *
 * After a response that ends the connection, {@link #closeGracefully()} does what a careful server
 * does (nginx calls it a lingering close): it half-closes (FIN after the response) and reads and
 * drops whatever the client still sends, until the client closes or {@code requestTimeout} passes.
 * Closing at once while a refused request body is still arriving would make the kernel answer with
 * a reset, and a client still sending may then lose the response it was about to read.
 *
 * <p>A client that trickles one byte a second is RECEIVING the whole time, so the request deadline,
 * not the idle clock, catches it. Independently of the state, writes have their own clock: when
 * bytes have been waiting to be written for {@code writeTimeout} without any write completing (the
 * client stopped reading and the socket buffers are full), the connection is closed. A streamed
 * response has one 32 KiB chunk in flight at a time, so a client must take a chunk per {@code
 * writeTimeout}. Timers run on the connection's event loop; the state is only touched there.
 * Admission: at most {@code maxConnections} open at once; one more is answered {@code 503} and
 * closed. The shared {@link Connections} counts, and lets shutdown close every connection that is
 * not answering a request.
 */
final class ConnectionGuard extends ChannelDuplexHandler {
  /** Every connection of one server. */
  static final class Connections {
    final int max;
    final AtomicInteger open = new AtomicInteger();
    final LongAdder accepted = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder timedOut = new LongAdder();
    final ChannelGroup channels =
        new DefaultChannelGroup("idxkit-http", GlobalEventExecutor.INSTANCE);
    final CompletableFuture<Void> drained = new CompletableFuture<>();
    volatile boolean closing;

    Connections(int max) {
      this.max = max;
    }

    /** Stops admitting, closes idle connections; busy ones close after their response. */
    void beginClosing() {
      closing = true;
      for (Channel ch : channels) {
        ch.eventLoop()
            .execute(
                () -> {
                  ConnectionGuard g = ch.pipeline().get(ConnectionGuard.class);
                  if (g != null) {
                    g.closeIfIdle();
                  }
                });
      }
      if (open.get() == 0) {
        drained.complete(null);
      }
    }

    private void closed() {
      if (open.decrementAndGet() == 0 && closing) {
        drained.complete(null);
      }
    }
  }

  private enum State {
    IDLE,
    RECEIVING,
    BUSY,
    CLOSING
  }

  private final Connections connections;
  private final long requestNanos;
  private final long idleNanos;
  private final long writeNanos;
  private ChannelHandlerContext ctx;
  private State state = State.IDLE;
  private ScheduledFuture<?> timer;
  private ScheduledFuture<?> stallTimer;
  private int pendingWrites;
  private long lastWriteProgress;
  private boolean admitted;

  ConnectionGuard(Connections connections, Duration request, Duration idle, Duration write) {
    this.connections = connections;
    this.requestNanos = request.toNanos();
    this.idleNanos = idle.toNanos();
    this.writeNanos = write.toNanos();
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    this.ctx = ctx;
    connections.accepted.increment();
    boolean closing = connections.closing;
    if (closing || connections.open.incrementAndGet() > connections.max) {
      if (!closing) {
        connections.open.decrementAndGet();
      }
      connections.rejected.increment();
      String why =
          closing
              ? "server is shutting down"
              : "too many connections (limit " + connections.max + ")";
      writeRaw(ctx, 503, "Service Unavailable", why);
      return;
    }
    admitted = true;
    connections.channels.add(ctx.channel());
    if (connections.closing) {
      ctx.close(); // shutdown began after the admission check and may not have seen this one
      return;
    }
    arm(State.IDLE, idleNanos);
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    cancelTimer();
    if (stallTimer != null) {
      stallTimer.cancel(false);
      stallTimer = null;
    }
    if (admitted) {
      admitted = false;
      connections.closed();
    }
    super.channelInactive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (!admitted) {
      ReferenceCountUtil.release(msg); // a refused connection's bytes go nowhere
      return;
    }
    if (state == State.CLOSING) {
      ReferenceCountUtil.release(msg); // after the last response: drained, never parsed
      return;
    }
    if (state == State.IDLE) {
      arm(State.RECEIVING, requestNanos);
    }
    super.channelRead(ctx, msg);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    ChannelPromise p = promise.unvoid();
    if (pendingWrites++ == 0) {
      lastWriteProgress = System.nanoTime();
    }
    if (stallTimer == null) {
      stallTimer = ctx.executor().schedule(this::checkStall, writeNanos, TimeUnit.NANOSECONDS);
    }
    ctx.write(msg, p);
    p.addListener(
        f -> {
          pendingWrites--;
          lastWriteProgress = System.nanoTime();
        });
  }

  /** A whole request has arrived; the clocks stop until the response is out. */
  void busy() {
    cancelTimer();
    state = State.BUSY;
  }

  /** The response is written and nothing is queued: wait for the next request, or close. */
  void idle() {
    if (connections.closing) {
      ctx.close();
      return;
    }
    arm(State.IDLE, idleNanos);
  }

  /**
   * Ends the connection after its last response has been written: half-close, drain what the client
   * still sends, close on its end-of-stream or after {@code requestTimeout}.
   */
  void closeGracefully() {
    if (state == State.CLOSING) {
      return;
    }
    Channel ch = ctx.channel();
    if (!(ch instanceof DuplexChannel d) || !ch.isActive()) {
      ctx.close();
      return;
    }
    arm(State.CLOSING, requestNanos); // closes when it expires
    ch.config().setAutoRead(true);
    d.shutdownOutput()
        .addListener(
            f -> {
              if (!f.isSuccess()) {
                ctx.close();
              }
            });
  }

  /** True once shutdown began: responses should say {@code Connection: close}. */
  boolean closing() {
    return connections.closing;
  }

  private void closeIfIdle() {
    if (state == State.IDLE && ctx != null) {
      ctx.close();
    }
  }

  private void arm(State s, long nanos) {
    cancelTimer();
    state = s;
    timer = ctx.executor().schedule(() -> expired(s), nanos, TimeUnit.NANOSECONDS);
  }

  private void expired(State s) {
    timer = null;
    if (state != s || !ctx.channel().isActive()) {
      return;
    }
    if (s == State.CLOSING || s == State.IDLE) {
      // After the last answer the client kept the connection (or kept sending); or a kept-alive
      // connection was not used again. Neither is a fault: closed without counting.
      ctx.close();
      return;
    }
    connections.timedOut.increment();
    if (s == State.RECEIVING) {
      writeRaw(
          ctx,
          408,
          "Request Timeout",
          "request not received within " + Duration.ofNanos(requestNanos).toMillis() + " ms");
    }
  }

  /** Closes the connection if bytes have waited {@code writeTimeout} with no write completing. */
  private void checkStall() {
    stallTimer = null;
    if (pendingWrites == 0 || !ctx.channel().isActive()) {
      return;
    }
    long waited = System.nanoTime() - lastWriteProgress;
    if (waited >= writeNanos) {
      connections.timedOut.increment();
      ctx.close(); // the client stopped reading; its response cannot be finished
    } else {
      stallTimer =
          ctx.executor().schedule(this::checkStall, writeNanos - waited, TimeUnit.NANOSECONDS);
    }
  }

  private void cancelTimer() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  /** A complete response written below the codec, then the connection closed. */
  private static void writeRaw(ChannelHandlerContext ctx, int code, String reason, String error) {
    byte[] body = ("{\"error\":\"" + error + "\"}\n").getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 "
            + code
            + " "
            + reason
            + "\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    ByteBuf buf = Unpooled.buffer(head.length() + body.length);
    buf.writeBytes(head.getBytes(StandardCharsets.US_ASCII)).writeBytes(body);
    ctx.writeAndFlush(buf).addListener(ChannelFutureListener.CLOSE);
  }
}
