package dev.idxkit.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every refusal is bad input naming the option, the path and what is wrong, in plain words. */
class PathChecksTest {
  @TempDir Path tmp;

  @Test
  void outputFiles() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("sort1"));
    assertThatThrownBy(() -> PathChecks.outputFile(dir, "--json"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("--json " + dir + " : is a directory (expected: a file name)");
    Path orphan = tmp.resolve("nodir").resolve("r.json");
    assertThatThrownBy(() -> PathChecks.outputFile(orphan, "--reject"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "--reject " + orphan + " : directory " + orphan.getParent() + " does not exist");
    Path file = Files.writeString(tmp.resolve("f.txt"), "x");
    assertThatThrownBy(() -> PathChecks.outputFile(file.resolve("x"), "--json"))
        .hasMessageContaining("is not a directory");
    PathChecks.outputFile(tmp.resolve("new.json"), "--json");
    PathChecks.outputFile(file, "--json"); // replaced: allowed
  }

  /**
   * Whether a directory takes new files is tried: {@code access(2)} says yes to root for {@code
   * /proc}, where creating a file fails. The probe leaves nothing behind where it succeeds.
   */
  @Test
  void aDirectoryThatTakesNoNewFileIsRefused() throws IOException {
    PathChecks.outputFile(tmp.resolve("new.json"), "--json");
    PathChecks.outputDirectory(tmp, "--out");
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).as("no probe left behind").isEmpty();
    }
    assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux /proc");
    assertThatThrownBy(() -> PathChecks.outputFile(Path.of("/proc/out.txt"), "--csv"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("--csv /proc/out.txt : cannot create files in /proc (");
    assertThatThrownBy(() -> PathChecks.outputDirectory(Path.of("/proc/new"), "--out"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("--out /proc/new : cannot create files in /proc (");
    assertThatThrownBy(() -> PathChecks.creatableDirectory(Path.of("/proc/a/b/db"), "DB"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("DB /proc/a/b/db : cannot create files in /proc (");
  }

  /** A new database's directory may have missing parents: its nearest existing one is checked. */
  @Test
  void aDirectoryToCreateWithItsParents() throws IOException {
    PathChecks.creatableDirectory(tmp.resolve("a/b/db"), "DB");
    PathChecks.creatableDirectory(tmp, "DB");
    Path file = Files.writeString(tmp.resolve("f.txt"), "x");
    assertThatThrownBy(() -> PathChecks.creatableDirectory(file.resolve("db"), "DB"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("DB " + file.resolve("db") + " : " + file + " is not a directory");
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).as("nothing created but the test's file").containsExactly(file);
    }
  }

  @Test
  void inputFiles() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("sort1"));
    assertThatThrownBy(() -> PathChecks.inputFile(dir, "--csv"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("--csv " + dir + " : is a directory (expected: a file)");
    assertThatThrownBy(() -> PathChecks.inputFile(tmp.resolve("none.csv"), "--csv"))
        .hasMessageEndingWith(" : does not exist");
    PathChecks.inputFile(Files.writeString(tmp.resolve("a.csv"), "x"), "--csv");
  }

  @Test
  void outputDirectories() throws IOException {
    Path file = Files.writeString(tmp.resolve("f.txt"), "x");
    assertThatThrownBy(() -> PathChecks.outputDirectory(file, "--out"))
        .hasMessage("--out " + file + " : is a file (expected: a directory)");
    assertThatThrownBy(() -> PathChecks.outputDirectory(tmp.resolve("a/b"), "--out"))
        .hasMessageContaining("does not exist");
    PathChecks.outputDirectory(tmp.resolve("new"), "--out");
  }

  @Test
  void exceptionNamesBecomePlainWords() {
    assertThat(
            Failures.oneLine("cannot read sort1 at offset 0: java.io.IOException: Is a directory"))
        .isEqualTo("cannot read sort1 at offset 0: Is a directory");
    assertThat(Failures.oneLine("cannot open x: java.nio.file.NoSuchFileException: x"))
        .isEqualTo("cannot open x: no such file or directory: x");
    assertThat(Failures.oneLine("write failed: FileSystemException: sort1: Is a directory"))
        .isEqualTo("write failed: sort1: Is a directory");
    assertThat(Failures.oneLine("Error in line 3")).isEqualTo("Error in line 3");
    assertThat(Failures.oneLine("stopped: java.io.EOFException")).isEqualTo("stopped:");
    // What the user named stays, even when it looks like a class name.
    assertThat(Failures.oneLine("--csv ImportError.csv : does not exist"))
        .isEqualTo("--csv ImportError.csv : does not exist");
    assertThat(
            Failures.oneLine(
                "cannot open /data/LoadError/a.csv: java.nio.file.NoSuchFileException:"
                    + " /data/LoadError/a.csv"))
        .isEqualTo(
            "cannot open /data/LoadError/a.csv: no such file or directory: /data/LoadError/a.csv");
  }
}
