package dev.idxkit.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code idxkit idxbuild} as a DBA runs it: the plan, the report, the JSON, the .srt rules, bad
 * input, and progress as a bar on a terminal and as plain lines in a pipe.
 */
class CliIdxbuildIT {
  @TempDir static Path shared;
  static Path db;

  @BeforeAll
  static void database() throws Exception {
    Cli.Result r = Cli.run(shared, "create", "shop.db", "--tpch");
    assertThat(r.exit()).as(r.toString()).isZero();
    db = shared.resolve("shop.db");
    TpchFixture.fill(db, 3000);
  }

  @Test
  void rebuildsEveryIndexAndReportsIt(@TempDir Path cwd) throws Exception {
    Path json = cwd.resolve("report.json");
    Cli.Result r =
        Cli.run(
            cwd,
            "idxbuild",
            db.toString(),
            "all",
            "--memory",
            "256k",
            "-TB",
            "8",
            "-TM",
            "4",
            "-threadnum",
            "2",
            "-datascanthreads",
            "2",
            "-rusage",
            "--json",
            json.toString(),
            "--progress",
            "none");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("idxbuild " + db + ": 15 indexes")
        .contains("the current directory")
        .contains("group")
        .contains("estimated temp space")
        .contains("scan")
        .contains("build")
        .contains("publish")
        .contains("rebuilt 15 indexes")
        .contains("lineitem_pk")
        .contains("rusage: user");
    JsonNode doc = new ObjectMapper().readTree(json.toFile());
    assertThat(doc.get("indexes")).hasSize(15);
    assertThat(doc.get("keys").asLong()).isPositive();
    assertThat(doc.get("runs").asLong()).as("a 256 KiB budget spills").isPositive();
    assertThat(doc.get("mergePasses").asInt()).as("-TM 4 needs passes").isPositive();
    try (var files = Files.list(cwd)) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.contains(".srt")))
          .as("temp files left in the sort directory")
          .isEmpty();
    }
    Cli.Result check = Cli.run(cwd, "check", db.toString());
    assertThat(check.exit()).as(check.toString()).isZero();
    assertThat(check.out()).contains("ok");
  }

  @Test
  void usesDbSrtFromTheCurrentDirectoryAndSaysSo(@TempDir Path cwd) throws Exception {
    Path sort = Files.createDirectories(cwd.resolve("sortspace"));
    Files.writeString(cwd.resolve("shop.db.srt"), "# sort space\n0 " + sort + "/\n");
    Cli.Result r = Cli.run(cwd, "idxbuild", db.toString(), "--table", "orders", "--plan");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("shop.db.srt").contains(sort.toString()).contains("orders_pk");
  }

  @Test
  void badInputExitsTwoWithOneLine(@TempDir Path cwd) throws Exception {
    Files.writeString(cwd.resolve("bad.srt"), "100 " + cwd + "\nlots /tmp\n");
    String[][] cases = {
      {"idxbuild", db.toString(), "--srt", cwd.resolve("bad.srt").toString()},
      {"idxbuild", db.toString(), "--srt", cwd.resolve("missing.srt").toString()},
      {"idxbuild", db.toString(), "--index", "no_such_index"},
      {"idxbuild", db.toString(), "-SG", "80"},
      {"idxbuild", db.toString(), "--memory", "lots"},
      {"idxbuild", db.toString(), "--fill", "5"},
      {"idxbuild", db.toString(), "everything"},
      {"idxbuild", cwd.resolve("nowhere.db").toString()},
    };
    String[] expected = {
      "bad.srt:2", "missing.srt", "no_such_index", "-SG : 80 (expected: 8..64)",
      "lots", "--fill (-pfactor) : 5 (expected: 10..100)", "everything", "no database"
    };
    for (int i = 0; i < cases.length; i++) {
      Cli.Result r = Cli.run(cwd, cases[i]);
      assertThat(r.exit()).as(r.toString()).isEqualTo(2);
      assertThat(r.errLines()).as(r.toString()).hasSize(1);
      assertThat(r.err()).as(r.toString()).contains(expected[i]).doesNotContain("at dev.");
    }
  }

  @Test
  void servesAProgressPageWhenAsked(@TempDir Path cwd) throws Exception {
    Cli.Result r =
        Cli.run(
            cwd,
            "idxbuild",
            db.toString(),
            "--table",
            "orders",
            "--http",
            "127.0.0.1:0",
            "--progress",
            "none");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).containsPattern("idxkit: progress at http://127\\.0\\.0\\.1:\\d+/");
    assertThat(r.out()).contains("rebuilt 3 indexes");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void showsABarOnATerminal(@TempDir Path cwd) throws Exception {
    // script(1) gives the command a pseudo-terminal and records what it draws.
    Path log = cwd.resolve("typescript");
    List<String> cmd =
        Cli.command(
            "idxbuild", db.toString(), "--table", "lineitem", "--memory", "256k", "-TB", "8");
    Process p =
        new ProcessBuilder("script", "-q", "-e", "-c", String.join(" ", quote(cmd)), log.toString())
            .directory(cwd.toFile())
            .redirectErrorStream(true)
            .redirectOutput(cwd.resolve("script.out").toFile())
            .start();
    assertThat(p.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    String drawn = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(drawn).isZero();
    assertThat(drawn)
        .as("bar frames: a phase name, a percentage, a block character and a rate")
        .containsPattern("scan +\\d+% \\|[█▏▎▍▌▋▊▉ ]*\\| +\\d+/\\d+ pages")
        .containsPattern("build +\\d+% \\|")
        .contains("\r");
  }

  @Test
  void printsPlainLinesInAPipe(@TempDir Path cwd) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
                Cli.command(
                    "idxbuild",
                    db.toString(),
                    "--table",
                    "lineitem",
                    "--memory",
                    "256k",
                    "-TB",
                    "8"))
            .directory(cwd.toFile());
    pb.environment().put("IDXKIT_PROGRESS_INTERVAL_MS", "50");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(Cli.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out + err).isZero();
    assertThat(err)
        .as("plain progress lines on stderr, no bar characters")
        .containsPattern("(?m)^(scan|build): \\d+% \\d+/\\d+ (pages|entries)")
        .doesNotContain("█")
        .doesNotContain("\r");
    assertThat(out).contains("rebuilt 6 indexes");
  }

  private static List<String> quote(List<String> cmd) {
    List<String> q = new ArrayList<>();
    for (String c : cmd) {
      q.add("'" + c.replace("'", "'\\''") + "'");
    }
    return q;
  }

  static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
