package dev.idxkit.idxbuild.temp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OpenEdge order: --srt, then db.srt in the current directory, then -T, then the cwd. */
class SrtSourceTest {
  @TempDir Path tmp;
  private Path cwd;
  private Path explicitDir;
  private Path dbSrtDir;
  private Path tDir;
  private Path explicit;

  @BeforeEach
  void setUp() throws IOException {
    cwd = Files.createDirectory(tmp.resolve("cwd"));
    explicitDir = Files.createDirectory(tmp.resolve("explicit-dir"));
    dbSrtDir = Files.createDirectory(tmp.resolve("dbsrt-dir"));
    tDir = Files.createDirectory(tmp.resolve("t-dir"));
    explicit = Files.writeString(tmp.resolve("mine.srt"), "100 " + explicitDir + "\n");
  }

  @Test
  void explicitFileWinsOverEverything() throws IOException {
    Files.writeString(cwd.resolve("tpch.srt"), "0 " + dbSrtDir + "\n");
    SrtSource.Choice c = SrtSource.resolve(explicit, "tpch", cwd, tDir);
    assertThat(c.srt().entries()).containsExactly(new SrtFile.Entry(100, explicitDir, 1));
    assertThat(c.description())
        .isEqualTo("sort directories from " + explicit + " (given with --srt)");
  }

  @Test
  void relativeExplicitFileIsResolvedAgainstTheCurrentDirectory() throws IOException {
    Files.writeString(cwd.resolve("rel.srt"), "0 " + dbSrtDir + "\n");
    SrtSource.Choice c = SrtSource.resolve(Path.of("rel.srt"), "tpch", cwd, null);
    // Read from the current directory, named in messages as given.
    assertThat(c.srt().entries()).containsExactly(new SrtFile.Entry(0, dbSrtDir, 1));
    assertThat(c.srt().file()).isEqualTo(Path.of("rel.srt"));
  }

  @Test
  void missingExplicitFileIsAnErrorEvenWhenOthersExist() throws IOException {
    Files.writeString(cwd.resolve("tpch.srt"), "0 " + dbSrtDir + "\n");
    Path missing = tmp.resolve("missing.srt");
    assertThatThrownBy(() -> SrtSource.resolve(missing, "tpch", cwd, tDir))
        .isInstanceOf(SrtFileException.class)
        .hasMessage("sort file " + missing + " (given with --srt) does not exist");
  }

  @Test
  void dbSrtInCurrentDirectoryWinsOverTempDir() throws IOException {
    Files.writeString(cwd.resolve("tpch.srt"), "0 " + dbSrtDir + "\n");
    // the database name may be given as a path: only its last component names the .srt
    SrtSource.Choice c = SrtSource.resolve(null, "/data/db/tpch", cwd, tDir);
    assertThat(c.srt().entries()).containsExactly(new SrtFile.Entry(0, dbSrtDir, 1));
    assertThat(c.description())
        .isEqualTo("sort directories from tpch.srt (found tpch.srt in the current directory)");
    assertThat(c.srt().file()).as("named in messages as found").isEqualTo(Path.of("tpch.srt"));
  }

  @Test
  void tempDirWhenNoSrtFile() throws IOException {
    Files.writeString(cwd.resolve("other.srt"), "0 " + dbSrtDir + "\n");
    SrtSource.Choice c = SrtSource.resolve(null, "tpch", cwd, tDir);
    assertThat(c.srt().entries()).containsExactly(new SrtFile.Entry(0, tDir, 0));
    assertThat(c.description())
        .isEqualTo(
            "sort directory "
                + tDir
                + " without a size limit (from -T; no --srt and no tpch.srt in the current"
                + " directory)");
    Path gone = tmp.resolve("gone");
    assertThatThrownBy(() -> SrtSource.resolve(null, "tpch", cwd, gone).srt().validate())
        .hasMessage(
            "-T directory: directory "
                + gone
                + " does not exist (create it: mkdir -p "
                + gone
                + ")");
  }

  @Test
  void currentDirectoryLast() {
    SrtSource.Choice c = SrtSource.resolve(null, "tpch", cwd, null);
    assertThat(c.srt().entries()).containsExactly(new SrtFile.Entry(0, cwd, 0));
    assertThat(c.description())
        .isEqualTo(
            "sort directory "
                + cwd
                + " without a size limit (the current directory; no --srt, no tpch.srt there"
                + " and no -T)");
  }

  @Test
  void malformedDbSrtIsReportedNotSkipped() throws IOException {
    Files.writeString(cwd.resolve("tpch.srt"), "lots " + dbSrtDir + "\n");
    // Named as the user knows it: the file in the current directory.
    assertThatThrownBy(() -> SrtSource.resolve(null, "tpch", cwd, tDir))
        .isInstanceOf(SrtFileException.class)
        .hasMessage("tpch.srt:1: size limit 'lots' is not a number (expected: KB, 0 for no limit)");
  }
}
