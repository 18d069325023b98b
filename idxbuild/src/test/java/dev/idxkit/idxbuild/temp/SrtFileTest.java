package dev.idxkit.idxbuild.temp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code .srt} parsing and validation, with the exact {@code file:line} messages. */
class SrtFileTest {
  @TempDir Path tmp;

  @Test
  void parsesEveryAcceptedForm() throws IOException {
    Path a = Files.createDirectory(tmp.resolve("a"));
    Path spaced = Files.createDirectory(tmp.resolve("sort dir 2"));
    Path hashed = Files.createDirectory(tmp.resolve("sort#3"));
    Path f =
        write(
            "idx.srt",
            "\uFEFF# sort directories for tpch\n"
                + "\n"
                + "2000000 "
                + a
                + "/\n"
                + "   0\t"
                + spaced
                + "   # the big disk\r\n"
                + "10 "
                + hashed
                + "\n"
                + "   \n"
                + "0 "
                + a
                + "\n");
    SrtFile srt = SrtFile.parse(f);
    assertThat(srt.entries())
        .containsExactly(
            new SrtFile.Entry(2_000_000, a, 3),
            new SrtFile.Entry(0, spaced, 4),
            new SrtFile.Entry(10, hashed, 5),
            new SrtFile.Entry(0, a, 7));
    assertThat(srt.entries().get(0).limitBytes()).isEqualTo(2_000_000L * 1024);
    assertThat(srt.entries().get(1).limitBytes()).isEqualTo(Long.MAX_VALUE);
    assertThat(srt.where(srt.entries().get(2))).isEqualTo(f + ":5");
    srt.validate();
    assertThat(Files.list(a).count()).as("validate leaves no probe file").isZero();
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "abc /tmp                |size limit 'abc' is not a number (expected: KB, 0 for no limit)",
        "12k /tmp                |size limit '12k' is not a number (expected: KB, 0 for no limit)",
        "1.5 /tmp                |size limit '1.5' is not a number (expected: KB, 0 for no limit)",
        "-5 /tmp                 |size limit '-5' is negative (expected: KB, 0 for no limit)",
        "99999999999999999999 /t |size limit '99999999999999999999' is too large (expected: at most"
            + " 9007199254740991 KB)",
        "9007199254740992 /t     |size limit '9007199254740992' is too large (expected: at most"
            + " 9007199254740991 KB)",
        "100                     |missing directory after size limit 100 (expected:"
            + " <size-limit-in-KB> <directory>)",
        "100 # no dir            |missing directory after size limit 100 (expected:"
            + " <size-limit-in-KB> <directory>)",
        "/var/sort               |missing size limit before directory /var/sort (expected:"
            + " <size-limit-in-KB> <directory>)",
      })
  void malformedLineNamesFileAndLine(String line, String problem) throws IOException {
    Path f = write("idx.srt", "# header\n0 " + tmp + "\n" + line.strip() + "\n0 " + tmp + "\n");
    assertThatThrownBy(() -> SrtFile.parse(f))
        .isInstanceOf(SrtFileException.class)
        .hasMessage(f + ":3: " + problem)
        .satisfies(e -> assertThat(((SrtFileException) e).isBadInput()).isTrue());
  }

  @Test
  void emptyFileIsAnError() throws IOException {
    Path f = write("empty.srt", "# nothing but comments\n\n   \n");
    assertThatThrownBy(() -> SrtFile.parse(f))
        .isInstanceOf(SrtFileException.class)
        .hasMessage(
            f + ": no sort directories (expected: lines of '<size-limit-in-KB> <directory>')");
    Path g = write("zero.srt", "");
    assertThatThrownBy(() -> SrtFile.parse(g)).hasMessageStartingWith(g + ": no sort directories");
  }

  @Test
  void missingAndNonUtf8Files() throws IOException {
    Path missing = tmp.resolve("nope.srt");
    assertThatThrownBy(() -> SrtFile.parse(missing))
        .isInstanceOf(SrtFileException.class)
        .hasMessage(missing + ": file does not exist");
    Path bin = tmp.resolve("bin.srt");
    Files.write(bin, new byte[] {'0', ' ', '/', (byte) 0xC3, (byte) 0x28, '\n'});
    assertThatThrownBy(() -> SrtFile.parse(bin)).hasMessage(bin + ": not UTF-8 text");
  }

  @Test
  void validateNamesMissingDirectoryAndNonDirectory() throws IOException {
    Path good = Files.createDirectory(tmp.resolve("good"));
    Path file = Files.writeString(tmp.resolve("plain-file"), "x");
    Path missing = tmp.resolve("missing");
    Path f = write("idx.srt", "0 " + good + "\n0 " + missing + "\n# c\n5 " + file + "\n");
    SrtFile srt = SrtFile.parse(f);
    assertThatThrownBy(srt::validate)
        .isInstanceOf(SrtFileException.class)
        .hasMessage(
            f
                + ":2: directory "
                + missing
                + " does not exist (create it: mkdir -p "
                + missing
                + ")\n"
                + f
                + ":4: "
                + file
                + " is not a directory (name a directory on this line)")
        .satisfies(
            e ->
                assertThat(((SrtFileException) e).problems())
                    .containsExactly(
                        f
                            + ":2: directory "
                            + missing
                            + " does not exist (create it: mkdir -p "
                            + missing
                            + ")",
                        f + ":4: " + file + " is not a directory (name a directory on this line)"));
  }

  @Test
  void validateNamesUnwritableDirectory() throws IOException {
    Path ro = Files.createDirectory(tmp.resolve("read-only"));
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      boolean canStillWrite;
      try {
        Files.delete(Files.createTempFile(ro, "root-check", ".tmp"));
        canStillWrite = true;
      } catch (IOException e) {
        canStillWrite = false;
      }
      assumeTrue(
          !canStillWrite,
          "skipped: running as root (or with CAP_DAC_OVERRIDE) makes a read-only directory"
              + " writable, so the unwritable case cannot be produced here");
      Path f = write("idx.srt", "0 " + ro + "\n");
      assertThatThrownBy(() -> SrtFile.parse(f).validate())
          .isInstanceOf(SrtFileException.class)
          .hasMessage(
              f
                  + ":1: directory "
                  + ro
                  + " is not writable (permission denied; fix: chmod u+w "
                  + ro
                  + ")");
    } finally {
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void ofDirectoryIsOneUnlimitedEntry() {
    SrtFile srt = SrtFile.ofDirectory(tmp);
    assertThat(srt.entries()).containsExactly(new SrtFile.Entry(0, tmp, 0));
    assertThat(srt.file()).isNull();
    srt.validate();
    Path missing = tmp.resolve("gone");
    assertThatThrownBy(() -> SrtFile.ofDirectory(missing).validate())
        .hasMessage(
            "sort directory: directory "
                + missing
                + " does not exist (create it: mkdir -p "
                + missing
                + ")");
  }

  @Test
  void trailingSlashesAreDropped() throws IOException {
    Path f = write("s.srt", "0 " + tmp + "///\n0 /\n");
    assertThat(SrtFile.parse(f).entries().stream().map(SrtFile.Entry::dir).toList())
        .isEqualTo(List.of(tmp, Path.of("/")));
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(tmp.resolve(name), text, StandardCharsets.UTF_8);
  }
}
