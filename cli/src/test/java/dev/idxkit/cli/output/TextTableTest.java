package dev.idxkit.cli.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TextTableTest {
  @Test
  void printsHeaderRuleAndAlignedRows() {
    StringWriter s = new StringWriter();
    new TextTable("table", "rows")
        .right(1)
        .add("lineitem", 60175)
        .add("region", 5)
        .print(new PrintWriter(s, true), "  ");
    assertThat(s.toString().split("\\R"))
        .containsExactly(
            "  table      rows", "  --------  -----", "  lineitem  60175", "  region        5");
  }

  @Test
  void refusesARowOfTheWrongWidth() {
    assertThatThrownBy(() -> new TextTable("a", "b").add("x"))
        .hasMessage("cells : 1 (expected: 2)");
  }

  @Test
  void sizesUseBinaryUnits() {
    assertThat(Sizes.bytes(1023)).isEqualTo("1023 B");
    assertThat(Sizes.bytes(8192)).isEqualTo("8.0 KiB");
    assertThat(Sizes.bytes(3L << 30)).isEqualTo("3.0 GiB");
  }
}
