package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the bench's command-line runs map the launcher's class-data archive (or, on JDK 25 and
 * newer, its ahead-of-time cache), and with what flags.
 */
class IdxbuildCliTest {
  @TempDir Path home;

  private static final Instant JAR_TIME = Instant.parse("2026-01-01T00:00:00Z");

  private Path target() throws Exception {
    Path target = Files.createDirectories(home.resolve("cli/target"));
    Files.writeString(target.resolve("idxkit.jar"), "jar");
    Files.setLastModifiedTime(target.resolve("idxkit.jar"), FileTime.from(JAR_TIME));
    return target;
  }

  private static void archive(Path target, String jvm, Instant time) throws Exception {
    Files.writeString(target.resolve("idxkit.jsa"), "archive");
    Files.setLastModifiedTime(target.resolve("idxkit.jsa"), FileTime.from(time));
    Files.writeString(target.resolve("idxkit.jsa.jvm"), jvm + "\n");
  }

  private static String thisJvm() {
    return "java.home="
        + System.getProperty("java.home")
        + "\njava.vm.version="
        + System.getProperty("java.vm.version");
  }

  @Test
  void aCurrentArchiveOfThisJvmIsMappedWithTheLaunchersFlags() throws Exception {
    Path target = target();
    archive(target, thisJvm(), JAR_TIME.plusSeconds(10));
    IdxbuildCli.Archive a = IdxbuildCli.Archive.of(home);
    assertThat(a.file()).isEqualTo(target.resolve("idxkit.jsa"));
    assertThat(a.flags(17))
        .containsExactly(
            "-XX:SharedArchiveFile=" + target.resolve("idxkit.jsa"),
            "-Xshare:auto",
            "-Xlog:cds*=off");
    assertThat(a.flags(25))
        .as("JDK 25 and newer: the launcher's file is an ahead-of-time cache")
        .containsExactly(
            "-XX:AOTCache=" + target.resolve("idxkit.jsa"), "-Xlog:aot*=off", "-Xlog:cds*=off");
    assertThat(a.flags()).isEqualTo(a.flags(Runtime.version().feature()));
    assertThat(a.label()).isEqualTo("cli/target/idxkit.jsa");
  }

  @Test
  void otherwiseNoneAndWhy() throws Exception {
    Path target = target();
    IdxbuildCli.Archive missing = IdxbuildCli.Archive.of(home);
    assertThat(missing.file()).isNull();
    assertThat(missing.flags()).isEmpty();
    assertThat(missing.label()).isEqualTo("none");
    assertThat(missing.note()).startsWith("none (no cli/target/idxkit.jsa");

    archive(target, thisJvm(), JAR_TIME.minusSeconds(10));
    assertThat(IdxbuildCli.Archive.of(home).note()).contains("older than the jar");

    archive(target, "java.home=/elsewhere\njava.vm.version=0", JAR_TIME.plusSeconds(10));
    IdxbuildCli.Archive foreign = IdxbuildCli.Archive.of(home);
    assertThat(foreign.file()).isNull();
    assertThat(foreign.note()).contains("made by another JVM");
  }

  @Test
  void theRunsPassTheHeapFlagTheLauncherGivesIdxbuild() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isRegularFile(root.resolve("idxkit")) || !Files.exists(root.resolve("mvnw"))) {
      root = root.getParent(); // Surefire runs in the module's directory, below the repository's
    }
    String launcher = Files.readString(root.resolve("idxkit"));
    assertThat(launcher)
        .contains(
            "if [ \"${1:-}\" = \"idxbuild\" ]; then\n  heap=\"" + IdxbuildCli.LAUNCHER_HEAP + "\"");
  }
}
