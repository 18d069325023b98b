package dev.idxkit.cli.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BearerTokenTest {
  static final String TOKEN = "0123456789abcdef0123";

  @TempDir Path dir;

  @Test
  void acceptsOnlyTheExactTokenUnderTheBearerScheme() {
    BearerToken t = BearerToken.of(TOKEN);
    assertThat(t.matches("Bearer " + TOKEN)).isTrue();
    assertThat(t.matches("bearer " + TOKEN)).as("the scheme is case-insensitive").isTrue();
    assertThat(t.matches("Bearer  " + TOKEN + " ")).as("blanks around the token").isTrue();
    assertThat(t.matches("Bearer " + TOKEN + "4")).isFalse();
    assertThat(t.matches("Bearer " + TOKEN.substring(1))).isFalse();
    assertThat(t.matches("Bearer " + TOKEN.toUpperCase())).isFalse();
    assertThat(t.matches("Basic " + TOKEN)).isFalse();
    assertThat(t.matches(TOKEN)).as("no scheme").isFalse();
    assertThat(t.matches("Bearer ")).isFalse();
    assertThat(t.matches(null)).isFalse();
    assertThat(t.toString()).doesNotContain(TOKEN);
  }

  @Test
  void readsTheFirstLineOfTheFileWithoutItsLineBreak() throws Exception {
    Path f = dir.resolve("token");
    Files.writeString(f, "  " + TOKEN + "\r\nsecond line ignored\n");
    assertThat(BearerToken.fromFile(f).matches("Bearer " + TOKEN)).isTrue();
  }

  @Test
  void refusesShortOrBlankTokensAndNamesTheFile() throws Exception {
    Path f = dir.resolve("short");
    Files.writeString(f, "secret\n");
    assertThatThrownBy(() -> BearerToken.fromFile(f))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("--token-file : " + f)
        .hasMessageContaining("token of 6 characters (expected: at least 16");
    assertThatThrownBy(() -> BearerToken.of("0123456789 abcdef"))
        .hasMessageContaining("blank, control or non-ASCII character at position 11");
    assertThatThrownBy(() -> BearerToken.fromFile(dir.resolve("missing")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("does not exist");
  }
}
