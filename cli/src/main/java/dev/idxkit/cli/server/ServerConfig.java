package dev.idxkit.cli.server;

import dev.idxkit.core.InvalidInputException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * How an idxkit HTTP server listens and what it allows. Every limit protects the server from one
 * kind of client; the defaults suit a server on loopback used by a handful of programs.
 *
 * <pre>
 * field            default     what it bounds
 * bind             127.0.0.1   who can connect at all (loopback unless told otherwise)
 * port             7070        0 = an ephemeral port (the startup line prints the one bound)
 * writable         false       POST /v1/tables/{t}/rows answers 403 unless true
 * token            none        with one, every request needs "Authorization: Bearer TOKEN" (else 401)
 * maxBodyBytes     64 MiB      a request body (413 beyond)
 * maxHeaderBytes   16 KiB      all header lines of one request together (431 beyond)
 * maxLineBytes     8 KiB       the request line, URL and query included (414 beyond)
 * maxConnections   256         open connections; one more is answered 503 and closed
 * requestTimeout   30 s        from a request's first byte to its last (slow senders: 408, closed)
 * idleTimeout      60 s        a kept-alive connection with no request (closed)
 * writeTimeout     30 s        a response the client does not read (closed)
 * ioThreads        CPUs        Netty event loops: parse HTTP, never touch the database
 * readThreads      2 x CPUs    lookups and scans (they may wait on page faults)
 * shutdownGrace    10 s        how long close() lets in-flight requests finish
 * transport        AUTO        epoll where Linux offers it, else NIO
 * </pre>
 *
 * Memory in the worst case is about {@code maxConnections x maxBodyBytes} of request bodies (writes
 * are aggregated before they run) plus one 32 KiB response chunk per streaming connection.
 */
public record ServerConfig(
    String bind,
    int port,
    boolean writable,
    BearerToken token,
    long maxBodyBytes,
    int maxHeaderBytes,
    int maxLineBytes,
    int maxConnections,
    Duration requestTimeout,
    Duration idleTimeout,
    Duration writeTimeout,
    int ioThreads,
    int readThreads,
    Duration shutdownGrace,
    Transport.Choice transport) {

  public static final String DEFAULT_BIND = "127.0.0.1";
  public static final int DEFAULT_PORT = 7070;
  public static final long DEFAULT_MAX_BODY = 64L << 20;
  public static final int DEFAULT_MAX_HEADER = 16 << 10;
  public static final int DEFAULT_MAX_LINE = 8 << 10;
  public static final int DEFAULT_MAX_CONNECTIONS = 256;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);

  /** HttpObjectAggregator counts in an int; a gigabyte is far past any sensible write batch. */
  static final long MAX_BODY_LIMIT = 1L << 30;

  public ServerConfig {
    if (bind == null || bind.isBlank()) {
      throw new InvalidInputException("bind : '" + bind + "' (expected: a host name or address)");
    }
    check("port", port, 0, 65_535);
    if (maxBodyBytes < 1024 || maxBodyBytes > MAX_BODY_LIMIT) {
      throw new InvalidInputException(
          "maxBodyBytes : " + maxBodyBytes + " (expected: 1024.." + MAX_BODY_LIMIT + ")");
    }
    check("maxHeaderBytes", maxHeaderBytes, 1024, 1 << 20);
    check("maxLineBytes", maxLineBytes, 256, 1 << 20);
    check("maxConnections", maxConnections, 1, 100_000);
    checkPositive("requestTimeout", requestTimeout);
    checkPositive("idleTimeout", idleTimeout);
    checkPositive("writeTimeout", writeTimeout);
    check("ioThreads", ioThreads, 1, 256);
    check("readThreads", readThreads, 1, 1024);
    if (shutdownGrace == null || shutdownGrace.isNegative()) {
      throw new InvalidInputException("shutdownGrace : " + shutdownGrace + " (expected: >= 0)");
    }
    if (transport == null) {
      throw new InvalidInputException("transport : null (expected: AUTO, EPOLL or NIO)");
    }
  }

  /** Loopback, port 7070, read-only, no token, the limits in the table above. */
  public static ServerConfig defaults() {
    int cpus = Runtime.getRuntime().availableProcessors();
    return new ServerConfig(
        DEFAULT_BIND,
        DEFAULT_PORT,
        false,
        null,
        DEFAULT_MAX_BODY,
        DEFAULT_MAX_HEADER,
        DEFAULT_MAX_LINE,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_REQUEST_TIMEOUT,
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_WRITE_TIMEOUT,
        cpus,
        2 * cpus,
        DEFAULT_SHUTDOWN_GRACE,
        Transport.Choice.AUTO);
  }

  public ServerConfig withListen(String bind, int port) {
    return with(
        b -> {
          b.bind = bind;
          b.port = port;
        });
  }

  public ServerConfig withWritable(boolean writable) {
    return with(b -> b.writable = writable);
  }

  public ServerConfig withToken(BearerToken token) {
    return with(b -> b.token = token);
  }

  /** Body, header and request-line limits in bytes. */
  public ServerConfig withSizeLimits(long maxBodyBytes, int maxHeaderBytes, int maxLineBytes) {
    return with(
        b -> {
          b.maxBodyBytes = maxBodyBytes;
          b.maxHeaderBytes = maxHeaderBytes;
          b.maxLineBytes = maxLineBytes;
        });
  }

  public ServerConfig withMaxConnections(int maxConnections) {
    return with(b -> b.maxConnections = maxConnections);
  }

  public ServerConfig withTimeouts(Duration request, Duration idle, Duration write) {
    return with(
        b -> {
          b.requestTimeout = request;
          b.idleTimeout = idle;
          b.writeTimeout = write;
        });
  }

  public ServerConfig withThreads(int ioThreads, int readThreads) {
    return with(
        b -> {
          b.ioThreads = ioThreads;
          b.readThreads = readThreads;
        });
  }

  public ServerConfig withShutdownGrace(Duration grace) {
    return with(b -> b.shutdownGrace = grace);
  }

  public ServerConfig withTransport(Transport.Choice transport) {
    return with(b -> b.transport = transport);
  }

  /** A copy with {@code change} applied, checked by the canonical constructor like any other. */
  private ServerConfig with(Consumer<Fields> change) {
    Fields f = new Fields(this);
    change.accept(f);
    return f.build();
  }

  /** The record's components, mutable, so that each wither names only what it changes. */
  private static final class Fields {
    String bind;
    int port;
    boolean writable;
    BearerToken token;
    long maxBodyBytes;
    int maxHeaderBytes;
    int maxLineBytes;
    int maxConnections;
    Duration requestTimeout;
    Duration idleTimeout;
    Duration writeTimeout;
    int ioThreads;
    int readThreads;
    Duration shutdownGrace;
    Transport.Choice transport;

    Fields(ServerConfig c) {
      bind = c.bind;
      port = c.port;
      writable = c.writable;
      token = c.token;
      maxBodyBytes = c.maxBodyBytes;
      maxHeaderBytes = c.maxHeaderBytes;
      maxLineBytes = c.maxLineBytes;
      maxConnections = c.maxConnections;
      requestTimeout = c.requestTimeout;
      idleTimeout = c.idleTimeout;
      writeTimeout = c.writeTimeout;
      ioThreads = c.ioThreads;
      readThreads = c.readThreads;
      shutdownGrace = c.shutdownGrace;
      transport = c.transport;
    }

    ServerConfig build() {
      return new ServerConfig(
          bind,
          port,
          writable,
          token,
          maxBodyBytes,
          maxHeaderBytes,
          maxLineBytes,
          maxConnections,
          requestTimeout,
          idleTimeout,
          writeTimeout,
          ioThreads,
          readThreads,
          shutdownGrace,
          transport);
    }
  }

  private static void check(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidInputException(
          name + " : " + value + " (expected: " + min + ".." + max + ")");
    }
  }

  private static void checkPositive(String name, Duration d) {
    if (d == null || d.isZero() || d.isNegative()) {
      throw new InvalidInputException(name + " : " + d + " (expected: > 0)");
    }
  }
}
