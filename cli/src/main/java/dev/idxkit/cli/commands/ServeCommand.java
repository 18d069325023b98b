package dev.idxkit.cli.commands;

import dev.idxkit.cli.ByteSizeConverter;
import dev.idxkit.cli.CommandInterruptedException;
import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.Session;
import dev.idxkit.cli.server.BearerToken;
import dev.idxkit.cli.server.IdxkitServer;
import dev.idxkit.cli.server.ServerConfig;
import dev.idxkit.cli.server.ServerLog;
import dev.idxkit.cli.server.Transport;
import dev.idxkit.core.Database;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code idxkit serve}: the database over HTTP until Ctrl-C or SIGTERM, then a graceful stop: no
 * new connections, in-flight requests finished (bounded by {@code --shutdown-grace}), the database
 * closed cleanly (a writable one checkpointed).
 *
 * <p>How it meets the Ctrl-C guard: the command thread starts the server, prints the startup line
 * and waits in {@link IdxkitServer#awaitStop()}. The guard's shutdown hook interrupts that wait;
 * the command closes the server, then the database (try-with-resources), and ends with {@link
 * CommandInterruptedException}, so the guard prints the state line and the exit code is 130 (the
 * JVM's own 143 after SIGTERM). The state is declared as a writer's (long grace), even read-only,
 * so the hook waits for the drain rather than the two seconds a read-only command gets.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve a database over HTTP/1.1 with JSON until Ctrl-C or SIGTERM (then stop gracefully).",
      "",
      "Endpoints: GET /v1/tables, /v1/tables/T (schema, row count), /v1/tables/T/indexes/I?key=..."
          + " (lookup) or ?from=&to=&limit=&reverse= (range scan; rows stream as JSON Lines),"
          + " POST /v1/tables/T/rows (JSON Lines, one transaction; --writable only), GET /v1/status,"
          + " /metrics (Prometheus), / (status page). Keys are written as for 'idxkit get --key'.",
      "",
      "Loopback and read-only unless told otherwise. With --token-file every request needs"
          + " 'Authorization: Bearer TOKEN'. The first line printed says where it listens:"
          + " 'idxkit serve: DB read-only at http://127.0.0.1:7070/ (transport epoll, ...)'."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit serve shop.db",
      "  curl 'http://127.0.0.1:7070/v1/tables/orders/indexes/orders_pk?key=42'",
      "  idxkit serve shop.db --writable --port 0 --token-file ~/.idxkit-token",
      "  idxkit serve shop.db --bind 0.0.0.0 --token-file token.txt --max-connections 64"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      "0:stopped",
      "1:failed (port in use, database locked by a writer, I/O error)",
      "2:bad usage or input (no database at DB, bad option value, unreadable token file)",
      "130:stopped by Ctrl-C or SIGTERM after finishing in-flight requests"
    })
public final class ServeCommand extends DbCommand {
  @Option(
      names = "--bind",
      paramLabel = "HOST",
      description = "Address to listen on (default ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
  String bind = ServerConfig.DEFAULT_BIND;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "TCP port (default ${DEFAULT-VALUE}; 0 picks a free one).")
  int port = ServerConfig.DEFAULT_PORT;

  static final class Mode {
    @Option(names = "--read-only", description = "Open read-only, refuse POST (the default).")
    boolean readOnly;

    @Option(
        names = "--writable",
        description = "Open read-write (the only writer) and accept POST /v1/tables/T/rows.")
    boolean writable;
  }

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  Mode mode;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description =
          "Require 'Authorization: Bearer TOKEN' with the token on the file's first line.")
  Path tokenFile;

  @Option(
      names = "--max-body",
      paramLabel = "SIZE",
      converter = ByteSizeConverter.class,
      description = "Largest request body (default 64m).")
  long maxBody = ServerConfig.DEFAULT_MAX_BODY;

  @Option(
      names = "--max-header",
      paramLabel = "SIZE",
      converter = ByteSizeConverter.class,
      description = "Largest request header block (default 16k).")
  long maxHeader = ServerConfig.DEFAULT_MAX_HEADER;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description = "Open connections at once; more are answered 503 (default ${DEFAULT-VALUE}).")
  int maxConnections = ServerConfig.DEFAULT_MAX_CONNECTIONS;

  @Option(
      names = "--request-timeout",
      paramLabel = "TIME",
      converter = DurationConverter.class,
      description = "Time to receive a whole request, e.g. 30s, 500ms (default 30s).")
  Duration requestTimeout = ServerConfig.DEFAULT_REQUEST_TIMEOUT;

  @Option(
      names = "--idle-timeout",
      paramLabel = "TIME",
      converter = DurationConverter.class,
      description = "Close a kept-alive connection idle this long (default 60s).")
  Duration idleTimeout = ServerConfig.DEFAULT_IDLE_TIMEOUT;

  @Option(
      names = "--write-timeout",
      paramLabel = "TIME",
      converter = DurationConverter.class,
      description = "Close a connection whose client stops reading its response (default 30s).")
  Duration writeTimeout = ServerConfig.DEFAULT_WRITE_TIMEOUT;

  @Option(
      names = "--read-threads",
      paramLabel = "N",
      description = "Threads answering reads (default: twice the CPUs).")
  Integer readThreads;

  @Option(
      names = "--shutdown-grace",
      paramLabel = "TIME",
      converter = DurationConverter.class,
      description = "How long a stop waits for in-flight requests (default 10s).")
  Duration shutdownGrace = ServerConfig.DEFAULT_SHUTDOWN_GRACE;

  @Option(
      names = "--transport",
      paramLabel = "KIND",
      description = "auto (epoll if available, else nio), epoll or nio (default ${DEFAULT-VALUE}).")
  Transport.Choice transport = Transport.Choice.AUTO;

  ServeCommand(Session session) {
    super(session);
  }

  @Override
  public Integer call() {
    boolean writable = mode != null && mode.writable;
    ServerConfig defaults = ServerConfig.defaults();
    if (maxHeader > Integer.MAX_VALUE) {
      maxHeader = Integer.MAX_VALUE; // the config refuses it with its range
    }
    ServerConfig config =
        defaults
            .withListen(bind, port)
            .withWritable(writable)
            .withToken(tokenFile == null ? null : BearerToken.fromFile(tokenFile))
            .withSizeLimits(maxBody, (int) maxHeader, defaults.maxLineBytes())
            .withMaxConnections(maxConnections)
            .withTimeouts(requestTimeout, idleTimeout, writeTimeout)
            .withThreads(
                defaults.ioThreads(), readThreads == null ? defaults.readThreads() : readThreads)
            .withShutdownGrace(shutdownGrace)
            .withTransport(transport);
    PrintWriter err = err();
    try (Database d =
            writable
                ? Database.open(db)
                : Database.open(db, Database.DatabaseOptions.defaults().readOnly());
        IdxkitServer server =
            IdxkitServer.start(config, d, null, ServerLog.to(err, common.verbose()))) {
      session
          .guard()
          .state(
              writable
                  ? "database " + db + " closed cleanly; every answered write is committed"
                  : "database " + db + " unchanged (served read-only)",
              false);
      if (config.token() == null && !loopback(config.bind())) {
        err.println(
            "idxkit serve: warning: listening on "
                + config.bind()
                + " without --token-file: anyone who can reach the port can read"
                + (writable ? " and write" : "")
                + " the database");
        err.flush();
      }
      out()
          .println(
              "idxkit serve: "
                  + db
                  + (writable ? " writable" : " read-only")
                  + " at "
                  + server.url()
                  + " (transport "
                  + server.transport().label()
                  + ", "
                  + config.readThreads()
                  + " read threads, max "
                  + config.maxConnections()
                  + " connections"
                  + (config.token() == null ? "" : ", bearer token required")
                  + ")");
      out().flush();
      try {
        server.awaitStop();
      } catch (InterruptedException e) {
        err.println(
            "idxkit serve: stopping: finishing in-flight requests (up to "
                + config.shutdownGrace().toMillis()
                + " ms), then closing the database");
        err.flush();
        server.close();
        Thread.interrupted(); // the stop request is recorded by the guard; closing must not fail
        throw new CommandInterruptedException();
      }
    }
    return ExitCodes.OK;
  }

  private static boolean loopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false; // the bind fails and says so
    }
  }

  /** Durations as people type them: {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h}. */
  static final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern FORM = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
      Matcher m = FORM.matcher(value.strip().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        throw new TypeConversionException(
            "duration '" + value + "' (expected: a whole number with ms, s, m or h, e.g. 30s)");
      }
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      switch (unit) {
        case "ms":
          return Duration.ofMillis(n);
        case "m":
          return Duration.ofMinutes(n);
        case "h":
          return Duration.ofHours(n);
        default:
          return Duration.ofSeconds(n);
      }
    }
  }
}
