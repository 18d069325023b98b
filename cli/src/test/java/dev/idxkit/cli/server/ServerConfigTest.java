package dev.idxkit.cli.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServerConfigTest {
  @Test
  void defaultsAreLoopbackReadOnlyWithTheDocumentedLimits() {
    ServerConfig c = ServerConfig.defaults();
    assertThat(c.bind()).isEqualTo("127.0.0.1");
    assertThat(c.port()).isEqualTo(7070);
    assertThat(c.writable()).isFalse();
    assertThat(c.token()).isNull();
    assertThat(c.maxBodyBytes()).isEqualTo(64L << 20);
    assertThat(c.maxHeaderBytes()).isEqualTo(16 << 10);
    assertThat(c.maxConnections()).isEqualTo(256);
    assertThat(c.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void eachWitherSetsTheFieldsItNamesAndKeepsTheOthers() {
    BearerToken token = BearerToken.of("secret-token-0123456789");
    ServerConfig c =
        ServerConfig.defaults()
            .withListen("0.0.0.0", 0)
            .withWritable(true)
            .withToken(token)
            .withSizeLimits(4096, 2048, 512)
            .withMaxConnections(7)
            .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3))
            .withThreads(3, 5)
            .withShutdownGrace(Duration.ofSeconds(4))
            .withTransport(Transport.Choice.NIO);
    assertThat(c)
        .isEqualTo(
            new ServerConfig(
                "0.0.0.0",
                0,
                true,
                token,
                4096,
                2048,
                512,
                7,
                Duration.ofSeconds(1),
                Duration.ofSeconds(2),
                Duration.ofSeconds(3),
                3,
                5,
                Duration.ofSeconds(4),
                Transport.Choice.NIO));
  }

  @Test
  void outOfRangeValuesNameTheFieldTheValueAndTheRange() {
    ServerConfig c = ServerConfig.defaults();
    assertThatThrownBy(() -> c.withListen("127.0.0.1", 70_000))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("port : 70000 (expected: 0..65535)");
    assertThatThrownBy(() -> c.withMaxConnections(0))
        .hasMessage("maxConnections : 0 (expected: 1..100000)");
    assertThatThrownBy(() -> c.withSizeLimits(2L << 30, 16384, 8192))
        .hasMessage("maxBodyBytes : 2147483648 (expected: 1024..1073741824)");
    assertThatThrownBy(
            () -> c.withTimeouts(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .hasMessage("requestTimeout : PT0S (expected: > 0)");
  }

  @Test
  void parsesTheHttpOptionOfJobs() {
    assertThat(ProgressServer.parseListen(":8080"))
        .isEqualTo(new ProgressServer.Listen("127.0.0.1", 8080));
    assertThat(ProgressServer.parseListen("8080"))
        .isEqualTo(new ProgressServer.Listen("127.0.0.1", 8080));
    assertThat(ProgressServer.parseListen("0.0.0.0:0"))
        .isEqualTo(new ProgressServer.Listen("0.0.0.0", 0));
    assertThat(ProgressServer.parseListen("[::1]:7070"))
        .isEqualTo(new ProgressServer.Listen("::1", 7070));
    assertThatThrownBy(() -> ProgressServer.parseListen(":http"))
        .hasMessage("--http : ':http' (expected: :PORT, HOST:PORT or PORT, with PORT 0..65535)");
    assertThatThrownBy(() -> ProgressServer.parseListen(":65536"))
        .isInstanceOf(InvalidInputException.class);
  }
}
