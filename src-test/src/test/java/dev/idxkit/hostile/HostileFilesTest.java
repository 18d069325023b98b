package dev.idxkit.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.idxkit.core.Database;
import dev.idxkit.core.DdlException;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.idxbuild.temp.SrtFileException;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.LoadInput;
import dev.idxkit.loader.LoadListener;
import dev.idxkit.loader.LoadOptions;
import dev.idxkit.loader.LoadOutcome;
import dev.idxkit.loader.LoadReport;
import dev.idxkit.loader.Loader;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.JsonLinesOptions;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every hostile file under {@code src/test/resources/hostile/} through the library the way the
 * command line would: DDL scripts through {@code Database.execute}, CSV and JSON Lines files
 * through the {@link Loader} with a reject file, {@code .srt} files through {@link SrtFile#parse}
 * and {@link SrtFile#validate}. The files are discovered, not listed here: adding one to a corpus
 * adds a test.
 *
 * <p>Each corpus file has a sidecar {@code NAME.expect} that says what must happen:
 *
 * <pre>
 * line=5                      DDL and .srt: the line the error names (0: the whole file)
 * message=unknown type        DDL and .srt: a fragment of the message
 * reject=3 column price       CSV and JSONL, one per rejected record: its line and a fragment
 * loaded=1,4                  CSV and JSONL: the ids of the rows that must load around them
 * </pre>
 *
 * Whatever the file holds, the only acceptable failure is idxkit's own typed exception naming the
 * file and line (or a reject record), never another exception type or a hang; afterwards the
 * database is as it was (DDL) or holds exactly the good rows (loads), and its check is clean.
 */
class HostileFilesTest {
  /** Only a hang guard: every file here takes milliseconds. */
  private static final Duration HANG_GUARD = Duration.ofSeconds(60);

  private static final String BASE_DDL =
      "CREATE TABLE base (id BIGINT PRIMARY KEY, v VARCHAR(10));"
          + "CREATE INDEX base_v ON base (v);";

  /** The table the CSV and JSON Lines corpora load into. */
  private static final String LOAD_DDL =
      "CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(10), price DECIMAL(6,2), day DATE,"
          + " PRIMARY KEY (id));"
          + "CREATE INDEX t_name ON t (name);";

  @TempDir Path tmp;

  @TestFactory
  Stream<DynamicTest> ddl() throws IOException {
    return tests("ddl", this::ddl);
  }

  @TestFactory
  Stream<DynamicTest> csv() throws IOException {
    return tests("csv", f -> load(f, LoadInput.csv(f, CsvOptions.defaults().withChunkBytes(64))));
  }

  @TestFactory
  Stream<DynamicTest> jsonl() throws IOException {
    return tests("jsonl", f -> load(f, LoadInput.jsonLines(f, JsonLinesOptions.defaults())));
  }

  @TestFactory
  Stream<DynamicTest> srt() throws IOException {
    return tests("srt", this::srt);
  }

  // ---- DDL

  private void ddl(Path file) throws IOException {
    Expect expect = Expect.of(file);
    String source = name(file);
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Path dir = tmp.resolve("ddl-" + source);
    try (Database db = Database.create(dir)) {
      db.execute(BASE_DDL);
      db.table("base").insert(1L, "one");
      db.table("base").insert(2L, "two");
      String before = schemaText(db);

      Throwable thrown = catchThrowable(() -> db.execute(text, source));

      assertThat(thrown).as("%s: expected a DdlException", source).isInstanceOf(DdlException.class);
      DdlException e = (DdlException) thrown;
      assertThat(e.source()).as(source).isEqualTo(source);
      assertThat(e.line()).as("line of %s", e.getMessage()).isEqualTo(expect.line());
      assertThat(e.getMessage()).startsWith(source + ":" + expect.line() + ":");
      assertThat(e.getMessage()).contains(expect.message());
      assertThat(e.getMessage().length())
          .as("the message stays readable even for a 100 KB identifier")
          .isLessThan(2000);
      assertThat(e.isBadInput()).isTrue();
      // Nothing of the script applied, not even its good statements; the old data reads.
      assertThat(schemaText(db)).as("schema after %s", source).isEqualTo(before);
      assertThat(db.table("base").rowCount()).isEqualTo(2);
      assertThat(db.index("base_pk").get(2L))
          .singleElement()
          .extracting(r -> r.get(1))
          .isEqualTo("two");
      assertThat(db.check().problems()).as("check after %s", source).isEmpty();
    }
    try (Database db = Database.open(dir)) {
      assertThat(db.schema().tables()).extracting(TableDef::name).containsExactly("base");
      assertThat(db.check().problems()).isEmpty();
    }
  }

  private static String schemaText(Database db) {
    return db.schema().tables().toString() + db.schema().indexes();
  }

  // ---- CSV and JSON Lines

  private void load(Path file, LoadInput input) throws IOException {
    Expect expect = Expect.of(file);
    for (IndexMode mode : List.of(IndexMode.LIVE, IndexMode.NONE)) {
      String what = name(file) + " (" + mode + ")";
      Path rejects = tmp.resolve(name(file) + "-" + mode + ".rejects");
      try (Database db = Database.create(tmp.resolve("load-" + name(file) + "-" + mode))) {
        db.execute(LOAD_DDL);
        LoadReport report =
            new Loader(
                    db,
                    LoadOptions.of("t", input)
                        .withIndexMode(mode)
                        .withRejectFile(rejects)
                        .withCheckpointRows(2)
                        .withParseThreads(2),
                    null)
                .run(LoadListener.NONE);

        Map<Long, String> rejected = rejectLines(rejects, file);
        assertThat(rejected.keySet())
            .as("%s: rejected lines; reject file:%n%s", what, Files.readString(rejects))
            .containsExactlyElementsOf(expect.rejects().keySet());
        expect
            .rejects()
            .forEach(
                (line, fragment) ->
                    assertThat(rejected.get(line)).as("%s line %d", what, line).contains(fragment));
        assertThat(report.outcome()).as(what).isEqualTo(LoadOutcome.COMPLETED);
        assertThat(report.rejected()).as(what).isEqualTo(expect.rejects().size());
        assertThat(ids(db))
            .as("%s: rows loaded around the rejects", what)
            .isEqualTo(expect.loaded());
        assertThat(report.rowsLoaded())
            .as("%s: rows the report counts", what)
            .isEqualTo(expect.loaded().size());
        assertThat(db.check().problems()).as("check after %s", what).isEmpty();
      }
    }
  }

  /** Line number to reject text, from a reject file whose lines read {@code INPUT:LINE: reason}. */
  private static Map<Long, String> rejectLines(Path rejects, Path input) throws IOException {
    Map<Long, String> byLine = new TreeMap<>();
    String prefix = input + ":";
    for (String l : Files.readAllLines(rejects, StandardCharsets.UTF_8)) {
      if (l.startsWith("#")) {
        continue;
      }
      assertThat(l).as("a reject names its input file").startsWith(prefix);
      int colon = l.indexOf(": ", prefix.length());
      assertThat(colon).as("a reject names its line: %s", l).isPositive();
      long line = Long.parseLong(l.substring(prefix.length(), colon));
      assertThat(byLine.put(line, l)).as("one reject per line: %s", l).isNull();
    }
    return byLine;
  }

  private static List<Long> ids(Database db) {
    List<Long> ids = new ArrayList<>();
    try (RowCursor c = db.table("t").scan()) {
      c.forEachRemaining((Row r) -> ids.add((Long) r.get(0)));
    }
    ids.sort(null);
    return ids;
  }

  // ---- .srt

  private void srt(Path file) throws IOException {
    Expect expect = Expect.of(file);
    Path dirs = Files.createDirectories(tmp.resolve("srt-" + name(file)));
    Path writable = Files.createDirectories(dirs.resolve("sort"));
    Path regular = Files.writeString(dirs.resolve("afile"), "not a directory");
    Path text = dirs.resolve(name(file));
    byte[] raw = Files.readAllBytes(file);
    if (isUtf8(raw)) {
      String body =
          new String(raw, StandardCharsets.UTF_8)
              .replace("@DIR@", writable.toString())
              .replace("@FILE@", regular.toString())
              .replace("@MISSING@", dirs.resolve("missing").toString())
              .replace("@RO@", unwritableDirectory(dirs).toString());
      Files.writeString(text, body, StandardCharsets.UTF_8);
    } else {
      Files.write(text, raw);
    }

    Throwable thrown =
        catchThrowable(
            () -> {
              SrtFile srt = SrtFile.parse(text);
              srt.validate();
            });

    assertThat(thrown)
        .as("%s: expected an SrtFileException", name(file))
        .isInstanceOf(SrtFileException.class);
    String where = expect.line() == 0 ? text + ": " : text + ":" + expect.line() + ": ";
    assertThat(thrown.getMessage()).startsWith(where).contains(expect.message());
    assertThat(((SrtFileException) thrown).isBadInput()).isTrue();
    try (Stream<Path> left = Files.list(writable)) {
      assertThat(left).as("validation leaves no probe files behind").isEmpty();
    }
  }

  /**
   * A directory no file can be created in: a read-only one, or - when the tests run as root, who
   * may write anywhere - {@code /proc}, where nothing can be created.
   */
  private static Path unwritableDirectory(Path dirs) throws IOException {
    Path ro = dirs.resolve("readonly");
    if (!Files.exists(ro)) {
      Files.createDirectories(ro);
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    }
    try {
      Files.delete(Files.createTempFile(ro, "probe", ".tmp"));
      return Path.of("/proc");
    } catch (IOException e) {
      return ro;
    }
  }

  private static boolean isUtf8(byte[] b) {
    try {
      StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b));
      return true;
    } catch (java.nio.charset.CharacterCodingException e) {
      return false;
    }
  }

  // ---- corpora and their expectations

  private static Stream<Path> corpus(String kind) throws IOException {
    Path dir;
    try {
      dir = Path.of(HostileFilesTest.class.getResource("/hostile/" + kind).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> !name(p).endsWith(".expect")).sorted().toList();
    }
    assertThat(files).as("the %s corpus", kind).hasSizeGreaterThanOrEqualTo(5);
    for (Path f : files) {
      assertThat(Path.of(f + ".expect")).as("every corpus file has its .expect").exists();
    }
    return files.stream();
  }

  private static String name(Path p) {
    return p.getFileName().toString();
  }

  private interface FileCheck {
    void run(Path file) throws Exception;
  }

  /** One test per file of the corpus, each failing rather than hanging. */
  private static Stream<DynamicTest> tests(String kind, FileCheck check) throws IOException {
    return corpus(kind)
        .map(
            f ->
                DynamicTest.dynamicTest(
                    name(f), () -> assertTimeoutPreemptively(HANG_GUARD, () -> check.run(f))));
  }

  /** The parsed {@code NAME.expect} sidecar. */
  private record Expect(int line, String message, Map<Long, String> rejects, List<Long> loaded) {
    static Expect of(Path file) throws IOException {
      int line = -1;
      String message = null;
      Map<Long, String> rejects = new TreeMap<>();
      List<Long> loaded = List.of();
      for (String l : Files.readAllLines(Path.of(file + ".expect"), StandardCharsets.UTF_8)) {
        if (l.isBlank() || l.startsWith("#")) {
          continue;
        }
        int eq = l.indexOf('=');
        String key = l.substring(0, eq);
        String value = l.substring(eq + 1);
        switch (key) {
          case "line" -> line = Integer.parseInt(value);
          case "message" -> message = value;
          case "reject" -> {
            int sp = value.indexOf(' ');
            rejects.put(Long.parseLong(value.substring(0, sp)), value.substring(sp + 1));
          }
          case "loaded" ->
              loaded =
                  value.isEmpty()
                      ? List.of()
                      : Arrays.stream(value.split(",")).map(Long::parseLong).toList();
          default -> fail("%s.expect: unknown key %s", file, key);
        }
      }
      return new Expect(line, message, rejects, loaded);
    }
  }
}
