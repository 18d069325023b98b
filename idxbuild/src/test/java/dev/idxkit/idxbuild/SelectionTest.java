package dev.idxkit.idxbuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.DdlParser;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.schema.TpchDdl;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link Selection#check}: every unknown name is one message naming option, name and choices. */
class SelectionTest {
  static final Schema TPCH = TpchDdl.schema();

  static Selection of(List<String> tables, List<String> areas, List<String> indexes) {
    return new Selection(
        new LinkedHashSet<>(tables),
        new LinkedHashSet<>(areas),
        new LinkedHashSet<>(indexes),
        false);
  }

  @Test
  void knownNamesPassIgnoringCaseAndSurroundingBlanks() {
    Selection s = of(List.of("orders", " LINEITEM"), List.of("index "), List.of(" orders_pk"));
    s.check(TPCH, "shop.db");
    assertThat(s.tables()).containsExactly("orders", "LINEITEM");
    assertThat(s.areas()).containsExactly("index");
    assertThat(s.indexes()).containsExactly("orders_pk");
    Selection.ALL.check(TPCH, "shop.db");
  }

  @Test
  void anUnknownNameNamesTheOptionTheDatabaseAndTheChoices() {
    assertThatThrownBy(
            () -> of(List.of("orders", "nope"), List.of(), List.of()).check(TPCH, "shop.db"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "--table : no table nope in shop.db (tables: region, nation, part, supplier, partsupp,"
                + " customer, orders, lineitem)");
    assertThatThrownBy(() -> of(List.of(), List.of(), List.of("nope")).check(TPCH, "shop.db"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("--index : no index nope in shop.db (indexes: ")
        .hasMessageContaining("orders_pk")
        .hasMessageEndingWith(")");
    assertThatThrownBy(() -> of(List.of(), List.of("fast"), List.of()).check(TPCH, "shop.db"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("--area : no area fast in shop.db (areas: data, index)");
  }

  @Test
  void theFirstUnknownNameInTheOrderGivenIsReported() {
    assertThatThrownBy(() -> of(List.of("zz", "aa"), List.of(), List.of()).check(TPCH, "shop.db"))
        .hasMessageStartingWith("--table : no table zz in shop.db");
    // Tables are checked before indexes, indexes before areas.
    assertThatThrownBy(() -> of(List.of("t1"), List.of("a1"), List.of("i1")).check(TPCH, "shop.db"))
        .hasMessageStartingWith("--table : no table t1 ");
    assertThatThrownBy(() -> of(List.of(), List.of("a1"), List.of("i1")).check(TPCH, "shop.db"))
        .hasMessageStartingWith("--index : no index i1 ");
  }

  @Test
  void longListsAreCutAndAnEmptyOneSaysSo() {
    StringBuilder ddl = new StringBuilder();
    for (int t = 0; t < Selection.MAX_LISTED + 5; t++) {
      ddl.append("CREATE TABLE t").append(t).append(" (id BIGINT NOT NULL);\n");
    }
    Schema many = DdlParser.apply(Schema.empty(), ddl.toString(), "many.sql");
    assertThatThrownBy(() -> of(List.of("nope"), List.of(), List.of()).check(many, "many.db"))
        .hasMessageStartingWith("--table : no table nope in many.db (tables: t0, t1, ")
        .hasMessageEndingWith(", t29, ... 5 more)");
    assertThatThrownBy(() -> of(List.of(), List.of(), List.of("nope")).check(many, "many.db"))
        .hasMessage("--index : no index nope in many.db (it has no indexes)");
    assertThatThrownBy(
            () -> of(List.of("nope"), List.of(), List.of()).check(Schema.empty(), "empty.db"))
        .hasMessage("--table : no table nope in empty.db (it has no tables)");
  }

  @Test
  void selectionsCompareAsSets() {
    assertThat(new Selection(Set.of("a", "b"), Set.of(), Set.of(), false))
        .isEqualTo(of(List.of("b", "a"), List.of(), List.of()));
  }
}
