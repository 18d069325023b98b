package dev.idxkit.jmh.peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL cluster for the benchmarks: {@code initdb} into a new temp directory, the
 * server started with {@code pg_ctl} listening on a Unix socket in that directory only ({@code
 * listen_addresses = ''}: no TCP port is opened), stopped ({@code -m immediate}) and deleted at
 * {@link #close()}.
 *
 * <p>Call order: {@link #start} (finds the binaries of the Debian package under {@code
 * /usr/lib/postgresql/VERSION/bin}, or on the PATH; when none is there and the process runs as root
 * with {@code apt-get}, installs the {@code postgresql} package first), {@link #jdbcUrl()}, {@link
 * #close()}.
 *
 * <p>The server refuses to run as root: as root every command runs through {@code runuser -u
 * postgres} (the package's system user) and the directory is handed to that user. The settings
 * ({@link #configLines}) go into {@code postgresql.conf}, so no shell quoting is involved.
 */
final class PostgresCluster implements AutoCloseable {
  /** The server settings the experiments compare under. */
  record Settings(long maintenanceWorkMemBytes, int parallelMaintenanceWorkers) {}

  static final String USER = "idxkit";
  static final String OS_USER = "postgres";

  private final Path base;
  private final Path bin;
  private final boolean root;
  private boolean running;

  private PostgresCluster(Path base, Path bin, boolean root) {
    this.base = base;
    this.bin = bin;
    this.root = root;
  }

  /** A new cluster with {@code settings}, started; the caller closes it. */
  static PostgresCluster start(Settings settings) throws PeerUnavailableException {
    boolean root = "root".equals(System.getProperty("user.name"));
    Path bin = findBin(Path.of("/usr/lib/postgresql"), System.getenv("PATH"));
    if (bin == null && root && Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
      run(List.of("apt-get", "install", "-y", "-q", "postgresql"), "apt-get install postgresql");
      bin = findBin(Path.of("/usr/lib/postgresql"), System.getenv("PATH"));
    }
    if (bin == null) {
      throw new PeerUnavailableException(
          "postgres: not run: no initdb/pg_ctl under /usr/lib/postgresql/*/bin or on the PATH"
              + (root ? "" : " (install the postgresql package, or run the bench as root)"));
    }
    Path base;
    try {
      base = Files.createTempDirectory("idxkit-pg-");
    } catch (IOException e) {
      throw new PeerUnavailableException("postgres: not run: cannot create a temp directory", e);
    }
    PostgresCluster c = new PostgresCluster(base, bin, root);
    try {
      if (root) {
        run(List.of("chown", OS_USER, base.toString()), "chown of " + base);
      }
      c.asUser(initdbCommand(bin, c.dataDir()), "initdb");
      Files.write(
          c.dataDir().resolve("postgresql.conf"),
          configLines(settings, base),
          StandardCharsets.UTF_8,
          StandardOpenOption.APPEND);
      c.asUser(
          List.of(
              bin.resolve("pg_ctl").toString(),
              "-D",
              c.dataDir().toString(),
              "-l",
              base.resolve("server.log").toString(),
              "-w",
              "start"),
          "pg_ctl start");
      c.running = true;
      return c;
    } catch (IOException | RuntimeException | PeerUnavailableException e) {
      c.close();
      if (e instanceof PeerUnavailableException p) {
        throw p;
      }
      throw new PeerUnavailableException("postgres: not run: " + e.getMessage(), e);
    }
  }

  Path dataDir() {
    return base.resolve("data");
  }

  /** pgjdbc over the cluster's Unix socket (junixsocket's socket factory). */
  String jdbcUrl() {
    return jdbcUrl(base);
  }

  static String jdbcUrl(Path socketDir) {
    return "jdbc:postgresql://localhost/postgres?user="
        + USER
        + "&socketFactory=org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg"
        + "&socketFactoryArg="
        + socketDir.resolve(".s.PGSQL.5432");
  }

  /** The newest {@code VERSION/bin} under {@code lib} with initdb and pg_ctl, else the PATH's. */
  static Path findBin(Path lib, String path) {
    if (Files.isDirectory(lib)) {
      try (Stream<Path> versions = Files.list(lib)) {
        Path best =
            versions
                .map(v -> v.resolve("bin"))
                .filter(PostgresCluster::hasTools)
                .max(Comparator.comparingInt(PostgresCluster::majorOf))
                .orElse(null);
        if (best != null) {
          return best;
        }
      } catch (IOException e) {
        // fall through to the PATH
      }
    }
    if (path != null) {
      for (String dir : path.split(":")) {
        if (!dir.isEmpty() && hasTools(Path.of(dir))) {
          return Path.of(dir);
        }
      }
    }
    return null;
  }

  private static boolean hasTools(Path dir) {
    return Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("pg_ctl"));
  }

  /** 15 for {@code /usr/lib/postgresql/15/bin}; -1 when the name is not a number. */
  static int majorOf(Path bin) {
    Path v = bin.getParent() == null ? null : bin.getParent().getFileName();
    try {
      return v == null ? -1 : Integer.parseInt(v.toString());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  static List<String> initdbCommand(Path bin, Path data) {
    return List.of(
        bin.resolve("initdb").toString(),
        "-D",
        data.toString(),
        "-U",
        USER,
        "--auth=trust",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync");
  }

  /**
   * The lines appended to {@code postgresql.conf}: Unix socket only, no fsync (as SQLite's
   * synchronous=OFF), and the sort memory and parallel workers of {@code CREATE INDEX}.
   */
  static List<String> configLines(Settings s, Path socketDir) {
    return List.of(
        "listen_addresses = ''",
        "unix_socket_directories = '" + socketDir.toString().replace("'", "''") + "'",
        "port = 5432",
        "fsync = off",
        "synchronous_commit = off",
        "full_page_writes = off",
        String.format(
            Locale.ROOT,
            "maintenance_work_mem = %dkB",
            Math.max(1024, s.maintenanceWorkMemBytes() >> 10)),
        "max_parallel_maintenance_workers = " + s.parallelMaintenanceWorkers(),
        "max_worker_processes = " + Math.max(8, s.parallelMaintenanceWorkers() + 2));
  }

  /** {@code command}, through {@code runuser -u postgres} when this process is root. */
  List<String> userCommand(List<String> command) {
    if (!root) {
      return command;
    }
    List<String> out = new ArrayList<>(List.of("runuser", "-u", OS_USER, "--"));
    out.addAll(command);
    return out;
  }

  private void asUser(List<String> command, String what) throws PeerUnavailableException {
    run(userCommand(command), what);
  }

  private static void run(List<String> command, String what) throws PeerUnavailableException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(300, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new PeerUnavailableException("postgres: not run: " + what + " did not finish");
      }
      if (p.exitValue() != 0) {
        String text = new String(out, StandardCharsets.UTF_8).strip();
        String last = text.isEmpty() ? "" : text.substring(text.lastIndexOf('\n') + 1);
        throw new PeerUnavailableException(
            "postgres: not run: " + what + " exited " + p.exitValue() + ": " + last);
      }
    } catch (IOException e) {
      throw new PeerUnavailableException(
          "postgres: not run: cannot start " + command.get(0) + " (" + what + ")", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PeerUnavailableException("postgres: not run: interrupted during " + what, e);
    }
  }

  /** Stops the server (immediately: nothing of it is kept) and deletes the directory. */
  @Override
  public void close() {
    try {
      if (running) {
        running = false;
        asUser(
            List.of(
                bin.resolve("pg_ctl").toString(),
                "-D",
                dataDir().toString(),
                "-m",
                "immediate",
                "-w",
                "stop"),
            "pg_ctl stop");
      }
    } catch (PeerUnavailableException e) {
      System.err.println("postgres: " + e.getMessage());
    } finally {
      deleteTree(base);
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder())
          .forEach(
              f -> {
                try {
                  Files.deleteIfExists(f);
                } catch (IOException e) {
                  // a leftover in the temp directory; nothing references it
                }
              });
    } catch (IOException e) {
      // as above
    }
  }
}
