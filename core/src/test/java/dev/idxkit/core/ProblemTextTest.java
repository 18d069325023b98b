package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Messages built around a caught exception say what went wrong in words, not its class name. */
class ProblemTextTest {
  @TempDir Path tmp;

  @Test
  void anIoErrorWithoutAMessageSaysIoErrorAndTheFile() {
    // Was "cannot read /data/x.area: java.io.IOException".
    assertThat(new IdxkitIOException("cannot read /data/x.area", new IOException()))
        .hasMessage("cannot read /data/x.area: I/O error");
    assertThat(new IdxkitIOException("cannot read /data/x.area", new EOFException()))
        .hasMessage("cannot read /data/x.area: unexpected end of file");
    assertThat(new IdxkitIOException("cannot write x", new ClosedChannelException()))
        .hasMessage("cannot write x: the file is already closed");
  }

  @Test
  void fileSystemExceptionsSayTheirKindInWords() {
    assertThat(ProblemText.of(new NoSuchFileException("/data/a.csv")))
        .isEqualTo("no such file or directory: /data/a.csv");
    assertThat(ProblemText.of(new AccessDeniedException("/data/a.csv")))
        .isEqualTo("permission denied: /data/a.csv");
    assertThat(ProblemText.of(new FileSystemException("sort1", null, "Is a directory")))
        .isEqualTo("sort1: Is a directory");
    assertThat(ProblemText.of(new FileSystemException("a", "b", null)))
        .isEqualTo("I/O error: a -> b");
    assertThat(ProblemText.of(new UncheckedIOException(new NoSuchFileException("x"))))
        .isEqualTo("no such file or directory: x");
  }

  @Test
  void otherExceptionsSayTheirMessageOrTheirFamily() {
    assertThat(ProblemText.of(new IOException("No space left on device")))
        .isEqualTo("No space left on device");
    assertThat(ProblemText.of(new IllegalStateException()))
        .isEqualTo("unexpected error with no message");
    assertThat(ProblemText.of(new RuntimeException(new IOException())))
        .as("a wrapper's message is its cause's toString(): the cause is described instead")
        .isEqualTo("I/O error");
  }

  @Test
  void aDatabaseWhoseLogIsADirectoryIsReportedInWords() throws IOException {
    Path dir = tmp.resolve("db");
    Database.create(dir).close();
    Files.delete(dir.resolve("wal"));
    Files.createDirectory(dir.resolve("wal"));
    assertThatThrownBy(() -> Database.open(dir).close())
        .isInstanceOf(IdxkitIOException.class)
        .hasMessageContaining(dir.resolve("wal").toString())
        .hasMessageContaining("Is a directory")
        .hasMessageNotContaining("Exception")
        .hasMessageNotContaining("java.");
  }

  @Test
  void valueTypesTakeTheirArticle() {
    assertThat(ProblemText.javaType(5L)).isEqualTo("a Long");
    assertThat(ProblemText.javaType(5)).isEqualTo("an Integer");
    assertThat(ProblemText.javaType(new byte[0])).isEqualTo("a byte[]");
    assertThat(ProblemText.withArticle("INT")).isEqualTo("an INT");
    assertThat(ProblemText.withArticle("VARCHAR(20)")).isEqualTo("a VARCHAR(20)");
  }
}
