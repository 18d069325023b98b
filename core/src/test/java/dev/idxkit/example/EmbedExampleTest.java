package dev.idxkit.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Embedding the store" section, run from its own text: the {@code java} block is
 * written to {@code Embed.java} and the README's {@code java} command line runs it (the JDK's
 * source launcher compiles it against this module's class path and runs it) in a child JVM. Run as
 * written, it prints what the README says; run without the flags, the first call fails with one
 * line naming them.
 */
class EmbedExampleTest {
  @TempDir Path tmp;

  String section;
  Path source;

  @BeforeEach
  void takeTheReadmesText() throws IOException {
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
    int from = readme.indexOf("## Embedding the store");
    section = readme.substring(from, readme.indexOf("\n## ", from + 1));
    source = tmp.resolve("Embed.java");
    Files.writeString(source, block("java"), StandardCharsets.UTF_8);
  }

  private String block(String lang) {
    Matcher m = Pattern.compile("```" + lang + "\\n(.*?)```", Pattern.DOTALL).matcher(section);
    assertThat(m.find()).as("a ```%s block in the README's embedding section", lang).isTrue();
    return m.group(1);
  }

  /** The flags of the README's {@code java} line. */
  private List<String> readmeFlags() {
    String line = block("sh").strip();
    assertThat(line).startsWith("java ").endsWith(" Embed.java shop");
    return Arrays.stream(line.split("\\s+")).filter(a -> a.startsWith("--")).toList();
  }

  @Test
  void theReadmesExampleRunsAsWritten() throws Exception {
    assertThat(section)
        .contains("<groupId>dev.idxkit</groupId>")
        .contains("<artifactId>idxkit-core</artifactId>");
    Run r = run(readmeFlags());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().lines()).containsExactly("anvil", "1 anvil", "2 rope");
  }

  @Test
  void withoutTheFlagsTheFirstCallNamesThemInOneLine() throws Exception {
    Run r = run(List.of());
    assertThat(r.exit()).isNotZero();
    String first = r.err().lines().findFirst().orElse("");
    assertThat(first)
        .startsWith("Exception in thread \"main\" dev.idxkit.core.IdxkitException:")
        .contains("idxkit needs JVM flags to map its files; start java with:");
    for (String flag : readmeFlags()) {
      assertThat(first).as("the refusal names " + flag).contains(flag);
    }
  }

  record Run(int exit, String out, String err) {}

  private Run run(List<String> flags) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(flags);
    cmd.add("-Dchronicle.analytics.disable=true");
    cmd.add("-cp");
    cmd.add(classPath());
    cmd.add(source.toString());
    cmd.add(tmp.resolve("shop").toString());
    File out = tmp.resolve("out.txt").toFile();
    File err = tmp.resolve("err.txt").toFile();
    Process p = new ProcessBuilder(cmd).redirectOutput(out).redirectError(err).start();
    assertThat(p.waitFor(3, TimeUnit.MINUTES)).as("the example finished").isTrue();
    return new Run(
        p.exitValue(),
        Files.readString(out.toPath(), StandardCharsets.UTF_8),
        Files.readString(err.toPath(), StandardCharsets.UTF_8));
  }

  /** This module's classes and dependencies (Surefire passes them apart from its own jar). */
  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }
}
