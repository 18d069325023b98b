package dev.idxkit.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's embedding example runs, prints what it says, and is the README's code verbatim. */
class EmbedExampleTest {
  @TempDir Path tmp;

  @Test
  void runsAndPrintsTheRows() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream old = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      EmbedExample.main(new String[] {tmp.resolve("shop").toString()});
    } finally {
      System.setOut(old);
    }
    assertThat(out.toString(StandardCharsets.UTF_8).lines())
        .containsExactly("anvil", "1 anvil", "2 rope");
  }

  @Test
  void readmeShowsThisExampleVerbatim() throws IOException {
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    String readme = Files.readString(root.resolve("README.md"));
    String source =
        Files.readString(root.resolve("core/src/test/java/dev/idxkit/example/EmbedExample.java"));
    String body =
        source.substring(source.indexOf("try (Database db"), source.lastIndexOf("}\n  }\n}"));
    for (String line : body.lines().map(String::strip).filter(l -> !l.isEmpty()).toList()) {
      assertThat(readme).as("README line").contains(line);
    }
  }
}
