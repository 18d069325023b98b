package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.JavaCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Database#preloadInBackground}, in JVMs of their own (in this one earlier tests have loaded
 * the binding): the preload starts and the main thread at once creates, fills and reopens a
 * database, so its first open needs the binding while the preload thread is still loading it (75 ms
 * of a cold start). Each child must finish with every row, its first call having started the thread
 * and its second not; one without the preload starts no preload thread.
 */
class PreloadTest {
  @TempDir Path tmp;

  /** The child: preload, then at once create a database, insert, close, reopen and count. */
  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    String started = "";
    if (args[1].equals("preload")) {
      started =
          "started " + Database.preloadInBackground() + " " + Database.preloadInBackground() + " ";
    }
    try (Database db = Database.create(dir)) {
      db.execute("CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(20), PRIMARY KEY (id));");
      for (long i = 0; i < 100; i++) {
        db.table("t").insert(i, "n" + i);
      }
    }
    try (Database db = Database.open(dir)) {
      long preloads =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.getName().equals("idxkit-preload"))
              .count();
      System.out.println(
          started + "rows " + db.table("t").rowCount() + " preload-threads-alive " + preloads);
    }
  }

  @Test
  void aDatabaseOpensWhileTheBindingLoadsBesideIt() throws Exception {
    for (int i = 0; i < 2; i++) {
      // The first call starts the thread, the second nothing.
      assertThat(child(tmp.resolve("p" + i), "preload")).startsWith("started true false rows 100 ");
    }
    assertThat(child(tmp.resolve("plain"), "plain")).isEqualTo("rows 100 preload-threads-alive 0");
  }

  private static String child(Path dir, String mode) throws IOException, InterruptedException {
    List<String> command = JavaCommand.running(PreloadTest.class, List.of(dir.toString(), mode));
    Path err = Files.createTempFile(dir.getParent(), "child", ".err");
    Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    // A deadlock between the two initializers would hang the child: bounded, not slept on.
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child finished").isTrue();
    assertThat(p.exitValue()).as("exit; stderr: " + Files.readString(err)).isZero();
    return out;
  }
}
