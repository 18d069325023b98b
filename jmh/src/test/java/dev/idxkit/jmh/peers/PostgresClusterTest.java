package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL and DuckDB peers' command lines, settings and SQL, without running either server
 * (the real runs are the idxbuild and load experiments).
 */
class PostgresClusterTest {
  @TempDir Path dir;

  @Test
  void serverListensOnItsSocketOnlyWithTheIssuesSettings() {
    PostgresCluster.Settings s = PostgresPeer.settingsFor(512L << 20, 2);
    assertThat(s.parallelMaintenanceWorkers()).as("the leader sorts too").isEqualTo(1);
    assertThat(PostgresPeer.settingsFor(1L << 30, 1).parallelMaintenanceWorkers()).isZero();
    assertThat(PostgresCluster.configLines(s, Path.of("/tmp/pg it's")))
        .contains(
            "listen_addresses = ''",
            "unix_socket_directories = '/tmp/pg it''s'",
            "fsync = off",
            "maintenance_work_mem = 524288kB",
            "max_parallel_maintenance_workers = 1");
    assertThat(PostgresCluster.jdbcUrl(Path.of("/tmp/pg1")))
        .startsWith("jdbc:postgresql://localhost/postgres?user=idxkit&")
        .contains("socketFactory=org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg")
        .endsWith("socketFactoryArg=/tmp/pg1/.s.PGSQL.5432");
  }

  @Test
  void initdbMakesATrustClusterWithoutSyncing() {
    assertThat(PostgresCluster.initdbCommand(Path.of("/usr/lib/postgresql/15/bin"), dir))
        .containsExactly(
            "/usr/lib/postgresql/15/bin/initdb",
            "-D",
            dir.toString(),
            "-U",
            "idxkit",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync");
  }

  @Test
  void findsTheNewestPackagedVersionThenThePath() throws Exception {
    Path lib = dir.resolve("lib");
    for (String v : new String[] {"13", "15", "notes"}) {
      tools(lib.resolve(v).resolve("bin"));
    }
    Files.createDirectories(lib.resolve("16").resolve("bin")); // no tools in it
    assertThat(PostgresCluster.findBin(lib, null)).isEqualTo(lib.resolve("15").resolve("bin"));
    assertThat(PostgresCluster.majorOf(lib.resolve("15").resolve("bin"))).isEqualTo(15);
    assertThat(PostgresCluster.majorOf(lib.resolve("notes").resolve("bin"))).isEqualTo(-1);

    Path onPath = dir.resolve("usr-bin");
    tools(onPath);
    assertThat(PostgresCluster.findBin(dir.resolve("absent"), "/nowhere::" + onPath))
        .isEqualTo(onPath);
    assertThat(PostgresCluster.findBin(dir.resolve("absent"), "/nowhere")).isNull();
  }

  @Test
  void copyAndSetStatementsAreQuoted() {
    assertThat(PostgresPeer.copySql("lineitem"))
        .isEqualTo("COPY lineitem FROM STDIN (FORMAT csv, HEADER true)");
    assertThat(DuckDbPeer.copySql("lineitem", Path.of("/data/li's.csv")))
        .isEqualTo("COPY lineitem FROM '/data/li''s.csv' (HEADER)");
    List<String> set = DuckDbPeer.settingsSql(512L << 20, 2, Path.of("/p"));
    assertThat(set)
        .containsExactly(
            "SET threads = 2", "SET memory_limit = '512MiB'", "SET temp_directory = '/p/tmp'");
  }

  private static void tools(Path bin) throws Exception {
    Files.createDirectories(bin);
    for (String t : new String[] {"initdb", "pg_ctl"}) {
      Path f = Files.createFile(bin.resolve(t));
      Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }
}
