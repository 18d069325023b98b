package dev.idxkit.jmh.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchArgsTest {
  @Test
  void readsEveryFormAndType() {
    BenchArgs a =
        BenchArgs.parse(
            "--keys",
            "10_000",
            "--sf=0.5",
            "--memory",
            "2g,64m",
            "--threads",
            "1,2",
            "--out",
            "x/y",
            "--check",
            "no",
            "--cache",
            "256k");
    assertThat(a.longValue("keys", 1, 1, 1_000_000)).isEqualTo(10_000);
    assertThat(a.doubleValue("sf", 1, 0, 10)).isEqualTo(0.5);
    assertThat(a.sizes("memory", List.of(), 1)).containsExactly(2L << 30, 64L << 20);
    assertThat(a.ints("threads", List.of(), 1, 8)).containsExactly(1, 2);
    assertThat(a.path("out", null)).isEqualTo(Path.of("x/y"));
    assertThat(a.bool("check", true)).isFalse();
    assertThat(a.bytes("cache", 0, 1)).isEqualTo(256L << 10);
    assertThat(a.intValue("absent", 7, 0, 9)).isEqualTo(7);
    a.checkAllRead("all");
  }

  @Test
  void errorsNameTheOptionTheValueAndTheBound() {
    assertThatThrownBy(() -> BenchArgs.parse("--keys", "ten").longValue("keys", 1, 1, 99))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("--keys : ten (expected: an integer 1..99)");
    assertThatThrownBy(() -> BenchArgs.parse("--keys", "100").longValue("keys", 1, 1, 99))
        .hasMessage("--keys : 100 (expected: 1..99)");
    assertThatThrownBy(() -> BenchArgs.parse("--sf", "0").doubleValue("sf", 1, 0, 10))
        .hasMessage("--sf : 0 (expected: > 0.0, <= 10.0)");
    assertThatThrownBy(() -> BenchArgs.parse("--memory", "2x").bytes("memory", 0, 1))
        .hasMessage("--memory : 2x (expected: a size such as 65536, 64k, 64m or 2g)");
    assertThatThrownBy(() -> BenchArgs.parse("--peers", "pg").list("peers", null, Set.of("h2")))
        .hasMessage("--peers : 'pg' (expected: one of h2)");
    assertThatThrownBy(() -> BenchArgs.parse("--keys"))
        .hasMessage("--keys : no value (expected: --keys VALUE)");
    assertThatThrownBy(() -> BenchArgs.parse("keys", "1"))
        .hasMessage("argument 1 : 'keys' (expected: --name value)");
    assertThatThrownBy(() -> BenchArgs.parse("--a", "1", "--a", "2"))
        .hasMessage("--a : given twice (expected: once)");
    assertThatThrownBy(() -> BenchArgs.parse("--check", "maybe").bool("check", true))
        .hasMessage("--check : maybe (expected: true or false)");
  }

  @Test
  void anUnknownOptionIsAnError() {
    BenchArgs a = BenchArgs.parse("--kyes", "5");
    a.longValue("keys", 1, 1, 9);
    assertThatThrownBy(() -> a.checkAllRead("--keys"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("--kyes : unknown option (expected one of: --keys)");
    assertThat(new InvalidInputException("x").isBadInput()).isTrue();
  }
}
