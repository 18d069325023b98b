package dev.idxkit.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaTest {
  private static final List<ColumnDef> TWO_COLUMNS =
      List.of(
          new ColumnDef("Id", ColumnType.of(TypeKind.BIGINT), false),
          new ColumnDef("name", ColumnType.varchar(20), true));

  @Test
  void emptySchemaHasTheTwoDefaultAreas() {
    Schema s = Schema.empty();
    assertThat(s.areas()).containsExactly(new AreaDef(0, "data"), new AreaDef(1, "index"));
    assertThat(s.tables()).isEmpty();
    assertThat(s.indexes()).isEmpty();
    assertThat(s.requireArea("DATA").id()).isEqualTo(Schema.DATA_AREA);
    assertThat(s.requireArea("index").id()).isEqualTo(Schema.INDEX_AREA);
  }

  @Test
  void idsAreDenseInCreationOrderAndNamesLowerCase() {
    Schema s =
        Schema.empty()
            .withTable("Orders", TWO_COLUMNS, Schema.DATA_AREA)
            .withArea("Big")
            .withTable("items", TWO_COLUMNS, 2)
            .withIndex("Orders_PK", 1, List.of(new IndexColumn(0, false)), true, 1)
            .withIndex("items_name", 2, List.of(new IndexColumn(1, true)), false, 2);

    assertThat(s.areas()).extracting(AreaDef::id, AreaDef::name).hasSize(3);
    assertThat(s.area(2)).isEqualTo(new AreaDef(2, "big"));
    assertThat(s.table(1).name()).isEqualTo("orders");
    assertThat(s.table(1).columns().get(0).name()).isEqualTo("id");
    assertThat(s.table(2).areaId()).isEqualTo(2);
    assertThat(s.index(1))
        .isEqualTo(new IndexDef(1, "orders_pk", 1, List.of(new IndexColumn(0, false)), true, 1));
    assertThat(s.index(2).name()).isEqualTo("items_name");
    assertThat(s.requireTable("ORDERS").id()).isEqualTo(1);
    assertThat(s.findTable("nope")).isEmpty();
    assertThat(s.requireIndex("Items_Name").id()).isEqualTo(2);
    assertThat(s.indexesOf(1)).extracting(IndexDef::name).containsExactly("orders_pk");
    assertThat(s.indexesOf(2)).extracting(IndexDef::name).containsExactly("items_name");
  }

  @Test
  void withMethodsLeaveTheOriginalUnchanged() {
    Schema before = Schema.empty().withTable("t", TWO_COLUMNS, 0);
    Schema after = before.withIndex("i", 1, List.of(new IndexColumn(0, false)), false, 1);
    assertThat(before.indexes()).isEmpty();
    assertThat(after.indexes()).hasSize(1);
    assertThat(before).isNotEqualTo(after);
    assertThat(before.withIndex("i", 1, List.of(new IndexColumn(0, false)), false, 1))
        .isEqualTo(after)
        .hasSameHashCodeAs(after);
  }

  @Test
  void unknownNamesListTheKnownOnesWhenFew() {
    Schema s = Schema.empty().withTable("b", TWO_COLUMNS, 0).withTable("a", TWO_COLUMNS, 0);
    assertThatThrownBy(() -> s.requireTable("x"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("unknown table x (known: a, b)");
    assertThatThrownBy(() -> s.requireIndex("x"))
        .hasMessage("unknown index x (there are no indexes)");
    assertThatThrownBy(() -> s.requireArea("x")).hasMessage("unknown area x (known: data, index)");

    Schema wide = Schema.empty();
    for (int i = 0; i < 20; i++) {
      wide = wide.withTable("t" + i, TWO_COLUMNS, 0);
    }
    Schema w = wide;
    assertThatThrownBy(() -> w.requireTable("x")).hasMessage("unknown table x (20 tables exist)");
    assertThatThrownBy(() -> w.table(21)).hasMessage("unknown table id 21 (expected: 1..20)");
    assertThatThrownBy(() -> w.indexesOf(0)).hasMessage("unknown table id 0 (expected: 1..20)");
  }

  @Test
  void checksWhatItIsGiven() {
    Schema s = Schema.empty().withTable("t", TWO_COLUMNS, 0);
    assertThatThrownBy(() -> s.withTable("T", TWO_COLUMNS, 0)).hasMessage("table t already exists");
    assertThatThrownBy(() -> s.withTable("u", List.of(), 0))
        .hasMessage("table u has 0 columns (expected: 1..1000)");
    assertThatThrownBy(
            () ->
                s.withTable(
                    "u",
                    List.of(
                        new ColumnDef("a", ColumnType.of(TypeKind.INT), true),
                        new ColumnDef("A", ColumnType.of(TypeKind.INT), true)),
                    0))
        .hasMessage("table u has two columns named a");
    assertThatThrownBy(() -> s.withTable("u", TWO_COLUMNS, 2))
        .hasMessage("table u: area id 2 (expected: 0..1)");
    assertThatThrownBy(
            () ->
                s.withTable(
                    "u",
                    List.of(new ColumnDef("a", new ColumnType(TypeKind.INT, 4, 0, 0), true)),
                    0))
        .hasMessage("column u.a: INT takes no length (got 4)");
    assertThatThrownBy(() -> s.withTable("bad\nname", TWO_COLUMNS, 0))
        .hasMessageContaining("contains a control character at 3");
    assertThatThrownBy(() -> s.withIndex("i", 2, List.of(new IndexColumn(0, false)), false, 1))
        .hasMessage("index i: table id 2 (expected: 1..1)");
    assertThatThrownBy(() -> s.withIndex("i", 1, List.of(new IndexColumn(2, false)), false, 1))
        .hasMessage("index i: column position 2 (expected: 0..1 in table t)");
    assertThatThrownBy(
            () ->
                s.withIndex(
                    "i", 1, List.of(new IndexColumn(1, false), new IndexColumn(1, true)), false, 1))
        .hasMessage("index i names column name twice");
    List<IndexColumn> seventeen = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      seventeen.add(new IndexColumn(i, false));
    }
    assertThatThrownBy(() -> s.withIndex("i", 1, seventeen, false, 1))
        .hasMessage("index i has 17 key columns (expected: 1..16)");
    assertThatThrownBy(() -> s.withArea("Has Space")).hasMessageContaining("not a plain name");
    assertThatThrownBy(() -> s.withArea("DATA")).hasMessage("area data already exists");
  }

  @Test
  void areasStopAt255() {
    Schema s = Schema.empty();
    for (int i = 2; i < AreaDef.MAX_AREAS; i++) {
      s = s.withArea("a" + i);
    }
    assertThat(s.areas()).hasSize(255);
    assertThat(s.area(254).name()).isEqualTo("a254");
    Schema full = s;
    assertThatThrownBy(() -> full.withArea("one_more"))
        .hasMessage("cannot add area one_more: the database has 255 areas, the limit");
  }
}
