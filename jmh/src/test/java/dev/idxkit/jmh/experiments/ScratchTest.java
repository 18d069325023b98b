package dev.idxkit.jmh.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchTest {
  @TempDir Path parent;

  @Test
  void closeDeletesTheDirectoryAndDropsTheExitHook() throws Exception {
    Scratch s = Scratch.under(parent, "t");
    Files.writeString(s.resolve("f"), "x");
    s.close();
    assertThat(s.path()).doesNotExist();
    assertThat(Runtime.getRuntime().removeShutdownHook(s.hook)).isFalse();
    s.close();
  }

  @Test
  void keptDirectoryHasNoExitHookLeftToDeleteIt() throws Exception {
    Scratch s = Scratch.under(parent, "t");
    Files.writeString(s.resolve("f"), "x");
    s.keep();
    // Were the hook still registered, System.exit would delete what the experiment said it kept.
    assertThat(Runtime.getRuntime().removeShutdownHook(s.hook)).isFalse();
    assertThat(s.resolve("f")).hasContent("x");
  }
}
