package dev.idxkit.cli.commands;

import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.Main;
import dev.idxkit.cli.Session;
import dev.idxkit.core.InvalidInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code idxkit cds-training DIR} (hidden): the training run of the {@code ./idxkit} launcher's
 * class-data-sharing archive. The launcher starts it once per jar and JVM build with {@code
 * -XX:DumpLoadedClassList=FILE}, so that FILE lists every class this JVM loads; {@code java
 * -Xshare:dump} then writes those classes, parsed, verified and laid out, to {@code
 * cli/target/idxkit.jsa}, and later runs map them instead of loading them from the jar again.
 *
 * <p>Steps, each an ordinary command line run in this JVM with its output discarded (one line per
 * step is printed, with the step's own errors when it fails), on a TPC-H database of 7,500 rows;
 * the TPC-H generator's set-up (about 2 s of the demo's 4) is the largest part:
 *
 * <ol>
 *   <li>{@code demo --sf 0.001}: create, load orders and lineitem from the generator, rebuild every
 *       index, check, look up;
 *   <li>{@code info}, {@code check}, {@code analyze}, {@code get} and {@code scan} on it, the scan
 *       written as CSV with a header;
 *   <li>{@code create --tpch}, {@code load --csv} of that file with the indexes built at the end,
 *       and {@code idxbuild --table lineitem} with a JSON report.
 * </ol>
 *
 * <p>Every sort here fits in memory: the classes that only a larger rebuild needs (runs spilled to
 * the sort directories and merged) still load from the jar when first used. The archive only saves
 * time; it changes nothing a command does. {@code DIR} must be empty or absent; the launcher makes
 * a temporary one and deletes it.
 */
@Command(
    name = "cds-training",
    hidden = true,
    mixinStandardHelpOptions = true,
    description = {
      "The ./idxkit launcher's training run for its class-data archive, not for direct use: runs"
          + " the common commands on a tiny TPC-H database in DIR and prints one line per step."
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      "0:every step ran",
      "1:a step failed (the line says which, with its output)",
      "2:bad usage (DIR is not empty)"
    })
public final class CdsTrainingCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "An empty or absent directory.")
  Path dir;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private final Session session;

  CdsTrainingCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    if (Files.exists(dir)) {
      try (var entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new InvalidInputException("DIR : " + dir + " is not empty (expected: empty)");
        }
      }
    }
    Files.createDirectories(dir);
    String demo = dir.resolve("demo").toString();
    String db = dir.resolve("demo/db").toString();
    String csvDb = dir.resolve("csv.db").toString();
    Path csv = dir.resolve("lineitem.csv");
    List<List<String>> steps =
        List.of(
            List.of("demo", "--sf", "0.001", "--dir", demo, "--progress", "none"),
            List.of("info", db),
            List.of("info", db, "--json"),
            List.of("check", db),
            List.of("analyze", db),
            List.of("get", db, "--index", "orders_pk", "--key", "1"),
            List.of("scan", db, "--index", "lineitem_pk", "--limit", "0", "--format", "csv"),
            List.of("create", csvDb, "--tpch"),
            List.of(
                "load",
                csvDb,
                "--table",
                "lineitem",
                "--csv",
                csv.toString(),
                "--progress",
                "none"),
            List.of(
                "idxbuild",
                csvDb,
                "--table",
                "lineitem",
                "-T",
                dir.toString(),
                "--progress",
                "none",
                "--json",
                dir.resolve("idxbuild.json").toString()),
            List.of("info", csvDb));
    for (List<String> step : steps) {
      long t0 = System.nanoTime();
      boolean toCsv = step.get(0).equals("scan");
      StringWriter err = new StringWriter();
      int code;
      try (Writer sink =
          toCsv ? Files.newBufferedWriter(csv, StandardCharsets.UTF_8) : Writer.nullWriter()) {
        code =
            Main.run(
                session, new PrintWriter(sink), new PrintWriter(err), step.toArray(String[]::new));
      }
      String line = "idxkit " + String.join(" ", step);
      if (code != ExitCodes.OK) {
        out.printf(Locale.ROOT, "%s: exit %d%n%s", line, code, err);
        out.flush();
        return ExitCodes.FAILED;
      }
      out.printf(Locale.ROOT, "%s: ok in %.2f s%n", line, (System.nanoTime() - t0) / 1e9);
      out.flush();
    }
    return ExitCodes.OK;
  }
}
