package dev.idxkit.cli.server;

import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitIOException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The idxkit HTTP server: a database's tables and indexes as JSON over HTTP/1.1, and the progress
 * of a job running beside it. The CLI's {@code idxkit serve} and the jobs' {@code --http} start it;
 * a JVM program can too.
 *
 * <p>Call order: {@link #start} (binds, or fails naming the address), then {@link #url()} for where
 * it listens, {@link #awaitStop()} to block until it is closed, {@link #close()} to stop it. The
 * caller owns the database and closes it after the server.
 *
 * <p>Threads (all named, all daemons):
 *
 * <pre>
 * idxkit-http-accept-*   1           accepts connections
 * idxkit-http-io-*       ioThreads   Netty event loops: HTTP parsing, writing responses, timers
 * idxkit-http-read-N     readThreads lookups, scans, schema, status, metrics, the page
 * idxkit-http-write      1           inserts: one transaction at a time, in arrival order
 * </pre>
 *
 * Each connection's pipeline: {@link ConnectionGuard} (admission and timeouts), Netty's HTTP codec
 * (request line and header limits), {@link RequestGate} (token, method, read-only; before any body
 * is read), Netty's aggregator (body limit), {@link RequestHandler} (one request at a time, in
 * order). Queues: each connection has at most one request being answered, so the read threads'
 * queue holds at most one task per open connection, and {@code maxConnections} bounds everything.
 *
 * <p>Shutdown ({@link #close()}): stop accepting; close idle connections at once; let busy ones
 * finish their response (answered with {@code Connection: close}) for up to {@code shutdownGrace};
 * then close whatever is left; then stop the threads, letting a running insert commit.
 */
public final class IdxkitServer implements AutoCloseable {
  private enum State {
    RUNNING,
    CLOSING,
    CLOSED
  }

  private final ServerConfig config;
  private final Transport transport;
  private final EventLoopGroup acceptor;
  private final EventLoopGroup io;
  private final ThreadPoolExecutor readers;
  private final ThreadPoolExecutor writer;
  private final ConnectionGuard.Connections connections;
  private final ServerMetrics metrics = new ServerMetrics();
  private final ServerLog log;
  private final Api api;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private Channel serverChannel;
  private InetSocketAddress address;
  private State state = State.RUNNING;

  private IdxkitServer(ServerConfig config, Database db, JobProgress job, ServerLog log) {
    this.config = config;
    this.log = log;
    this.transport = Transport.choose(config.transport());
    this.connections = new ConnectionGuard.Connections(config.maxConnections());
    this.acceptor =
        new MultiThreadIoEventLoopGroup(
            1, new DefaultThreadFactory("idxkit-http-accept", true), transport.ioHandlerFactory());
    this.io =
        new MultiThreadIoEventLoopGroup(
            config.ioThreads(),
            new DefaultThreadFactory("idxkit-http-io", true),
            transport.ioHandlerFactory());
    this.readers = pool(config.readThreads(), "idxkit-http-read-");
    this.writer = pool(1, "idxkit-http-write");
    this.api = new Api(config, db, job, metrics, connections, readers, writer, log, transport);
  }

  /**
   * Starts a server and binds it.
   *
   * @param db the database to serve, or null for a server that only reports {@code job}
   * @param job the job to report on {@code /} and {@code /v1/status}, or null
   * @throws IdxkitIOException if the address cannot be bound (in use, not local)
   */
  public static IdxkitServer start(
      ServerConfig config, Database db, JobProgress job, ServerLog log) {
    IdxkitServer s = new IdxkitServer(config, db, job, log == null ? ServerLog.NONE : log);
    try {
      s.bind();
      return s;
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  private void bind() {
    int maxBody = (int) config.maxBodyBytes();
    HttpDecoderConfig decoder =
        new HttpDecoderConfig()
            .setMaxInitialLineLength(config.maxLineBytes())
            .setMaxHeaderSize(config.maxHeaderBytes())
            .setMaxChunkSize(64 << 10);
    ServerBootstrap b =
        new ServerBootstrap()
            .group(acceptor, io)
            .channel(transport.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(
                ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(64 << 10, 256 << 10))
            .childHandler(
                new ChannelInitializer<Channel>() {
                  @Override
                  protected void initChannel(Channel ch) {
                    ConnectionGuard guard =
                        new ConnectionGuard(
                            connections,
                            config.requestTimeout(),
                            config.idleTimeout(),
                            config.writeTimeout());
                    ch.pipeline()
                        .addLast("guard", guard)
                        .addLast("codec", new HttpServerCodec(decoder))
                        .addLast(
                            "gate", new RequestGate(config.token(), config.writable(), maxBody))
                        .addLast("aggregator", new Aggregator(maxBody))
                        .addLast("api", new RequestHandler(api, guard));
                  }
                });
    String where = config.bind() + ":" + config.port();
    ChannelFuture f = b.bind(new InetSocketAddress(config.bind(), config.port()));
    f.awaitUninterruptibly();
    if (!f.isSuccess()) {
      Throwable c = f.cause();
      throw new IdxkitIOException(
          "cannot listen on " + where + " (" + c.getMessage() + ")",
          c instanceof IOException io ? io : new IOException(c));
    }
    serverChannel = f.channel();
    address = (InetSocketAddress) serverChannel.localAddress();
    api.url(url(address));
    serverChannel.closeFuture().addListener(x -> stopped.countDown());
  }

  private static String url(InetSocketAddress a) {
    String host = a.getAddress().getHostAddress();
    if (host.indexOf(':') >= 0) {
      host = "[" + host + "]";
    }
    return "http://" + host + ":" + a.getPort() + "/";
  }

  /** Where the server listens; the port is the bound one when port 0 was asked for. */
  public InetSocketAddress address() {
    return address;
  }

  /** {@code http://127.0.0.1:7070/}. */
  public String url() {
    return api.url();
  }

  public Transport transport() {
    return transport;
  }

  public ServerConfig config() {
    return config;
  }

  /** Connections open now (admitted ones; a refused connection is not counted). */
  public int openConnections() {
    return connections.open.get();
  }

  /** Connections closed because a client was too slow: request deadline, idle, stalled write. */
  public long connectionsTimedOut() {
    return connections.timedOut.sum();
  }

  /** Blocks until the server is closed (by {@link #close()}, or its socket failed). */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  /**
   * Stops the server gracefully (see the class comment); waits at most {@code shutdownGrace} for
   * in-flight responses, a little longer for a running insert to commit. Idempotent. An interrupt
   * while waiting cuts the grace short and is passed on (the flag stays set).
   */
  @Override
  public synchronized void close() {
    if (state != State.RUNNING) {
      return;
    }
    state = State.CLOSING;
    boolean interrupted = false;
    try {
      if (serverChannel != null) {
        serverChannel.close().awaitUninterruptibly();
      }
      connections.beginClosing();
      try {
        connections.drained.get(config.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        log.line(
            "closing "
                + connections.open.get()
                + " connection(s) still answering after the "
                + config.shutdownGrace().toMillis()
                + " ms shutdown grace");
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (ExecutionException e) {
        throw new IllegalStateException("the drain future never fails", e);
      }
      connections.channels.close().awaitUninterruptibly();
      readers.shutdownNow(); // streams still queued have lost their connections
      writer.shutdown(); // an insert that runs may commit: its client may have gone, its data not
      interrupted |= !awaitTermination(writer, 60) | !awaitTermination(readers, 5);
      io.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
      acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    } finally {
      state = State.CLOSED;
      stopped.countDown();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** False if interrupted while waiting; a pool that does not stop in time is left to die. */
  private boolean awaitTermination(ExecutorService pool, long seconds) {
    try {
      if (!pool.awaitTermination(seconds, TimeUnit.SECONDS)) {
        log.line("threads of " + pool + " still busy " + seconds + " s after shutdown");
      }
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  /**
   * Netty's aggregator, except that a chunked body growing past the limit is answered in turn by
   * the request handler (a 413 that closes the connection) rather than by the aggregator itself,
   * out of order and unseen by the metrics. A body announced too large never gets here: the gate
   * refuses it from its Content-Length.
   */
  private static final class Aggregator extends HttpObjectAggregator {
    private final int maxBody;

    Aggregator(int maxBody) {
      super(maxBody, true);
      this.maxBody = maxBody;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      ctx.fireChannelRead(RequestGate.tooLarge(maxBody, "chunked request body"));
    }
  }

  private static ThreadPoolExecutor pool(int threads, String name) {
    AtomicInteger n = new AtomicInteger();
    ThreadFactory f =
        r -> {
          Thread t = new Thread(r, threads == 1 ? name : name + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    return new ThreadPoolExecutor(
        threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), f);
  }
}
