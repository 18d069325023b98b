package dev.idxkit.cli.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** A failure's log line is words; its stack trace (with the class) follows only under --verbose. */
class ServerLogTest {
  private static String logged(boolean traces) {
    StringWriter out = new StringWriter();
    ServerLog.to(new PrintWriter(out), traces)
        .failure("GET /x -> 500: internal error: I/O error", new IOException());
    return out.toString();
  }

  @Test
  void theStackTraceFollowsOnlyWhenAskedFor() {
    assertThat(logged(false))
        .endsWith(
            " idxkit serve: GET /x -> 500: internal error: I/O error" + System.lineSeparator())
        .doesNotContain("IOException");
    assertThat(logged(true)).contains("I/O error" + System.lineSeparator() + "java.io.IOException");
  }
}
