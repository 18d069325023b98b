package dev.idxkit.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.DdlParser;
import dev.idxkit.core.schema.Schema;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTextTest {
  static final Catalog CAT =
      new Catalog(
          DdlParser.apply(
              Schema.empty(),
              """
              CREATE TABLE t (a BIGINT NOT NULL, b VARCHAR(20), c DATE, d DECIMAL(6,2),
                PRIMARY KEY (a, b, c));
              CREATE INDEX t_d ON t (d);
              """,
              "t.sql"));
  static final IndexInfo PK = CAT.index("t_pk");

  @Test
  void positionalListAndNamedListGiveTheSameValues() {
    Object[] expected = {5L, "x", LocalDate.of(1995, 3, 15)};
    assertThat(KeyText.fromList(PK, "5,x,1995-03-15", "--key")).containsExactly(expected);
    assertThat(KeyText.fromList(PK, "c=1995-03-15, a=5 ,B=x", "--key")).containsExactly(expected);
    assertThat(KeyText.fromArguments(PK, List.of("5", "x", "1995-03-15"), "KEY"))
        .containsExactly(expected);
    assertThat(KeyText.fromList(PK, "a=5", "--from")).containsExactly(5L);
  }

  @Test
  void quotesKeepCommasEqualsBlanksAndTheWordNull() {
    assertThat(KeyText.fromList(PK, "5,\" a,b=c \"", "--key")).containsExactly(5L, " a,b=c ");
    assertThat(KeyText.fromList(PK, "5,\"say \"\"hi\"\"\"", "--key"))
        .containsExactly(5L, "say \"hi\"");
    assertThat(KeyText.fromList(PK, "5,\"NULL\"", "--key")).containsExactly(5L, "NULL");
    assertThat(KeyText.fromList(PK, "5,null", "--key")).containsExactly(5L, null);
    assertThat(KeyText.fromList(PK, "a=5,b=NULL", "--key")).containsExactly(5L, null);
    assertThat(KeyText.fromArguments(PK, List.of("5", "NULL"), "KEY")).containsExactly(5L, null);
    // Each argument is taken whole: no splitting, no quotes.
    assertThat(KeyText.fromArguments(PK, List.of("5", "a,\"b\""), "KEY"))
        .containsExactly(5L, "a,\"b\"");
    assertThat(KeyText.fromList(PK, "5,\"\"", "--key")).containsExactly(5L, "");
  }

  @Test
  void valuesAreTypedByTheirColumn() {
    assertThat(KeyText.fromList(CAT.index("t_d"), "12.50", "--key"))
        .containsExactly(new BigDecimal("12.50"));
    assertThatThrownBy(() -> KeyText.fromList(CAT.index("t_d"), "12.505", "--key"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("--key : column d DECIMAL(6,2): ");
    assertThatThrownBy(() -> KeyText.fromArguments(PK, List.of("five"), "KEY"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("KEY : column a BIGINT: ")
        .hasMessageContaining("five");
    assertThatThrownBy(() -> KeyText.fromList(PK, "a=5,c=1995-02-30", "--to"))
        .hasMessageContaining("c given without b")
        .hasMessageStartingWith("--to : ");
    assertThatThrownBy(() -> KeyText.fromList(PK, "5,x,1995-02-30", "--to"))
        .hasMessageStartingWith("--to : column c DATE: ");
  }

  @Test
  void mistakesNameTheOptionAndTheKeyColumns() {
    String cols = "key columns: a BIGINT, b VARCHAR(20), c DATE";
    assertThatThrownBy(() -> KeyText.fromList(PK, "b=x", "--key"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "--key : b given without a (expected: the leading key columns of index t_pk, "
                + cols
                + ")");
    assertThatThrownBy(() -> KeyText.fromList(PK, "a=1,z=2", "--key"))
        .hasMessage("--key : z is not a key column of index t_pk (" + cols + ")");
    assertThatThrownBy(() -> KeyText.fromList(PK, "a=1,A=2", "--key"))
        .hasMessage("--key : a given twice (" + cols + ")");
    assertThatThrownBy(() -> KeyText.fromList(PK, "a=1,2", "--key"))
        .hasMessageContaining("all values named, as column=value, or none");
    assertThatThrownBy(() -> KeyText.fromList(PK, "1,x,2000-01-01,4", "--key"))
        .hasMessage("--key : 4 values for index t_pk (expected: at most 3, " + cols + ")");
    assertThatThrownBy(() -> KeyText.fromList(PK, " ", "--from"))
        .hasMessageStartingWith("--from : empty");
    assertThatThrownBy(() -> KeyText.fromArguments(PK, List.of(), "KEY"))
        .hasMessage("KEY : no values (expected: " + cols + ")");
    assertThatThrownBy(() -> KeyText.fromList(PK, "1,\"x", "--key"))
        .hasMessageContaining("closing '\"'");
    assertThatThrownBy(() -> KeyText.fromList(PK, "1,\"x\"y", "--key"))
        .hasMessageContaining("expected: ',' after the quoted value");
  }
}
