package dev.idxkit.cli.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.output.Json;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseStats;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.Schema;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * The schema as JSON: {@code GET /v1/tables} and {@code GET /v1/tables/{t}}, and the lookups of a
 * table or index by name that every table endpoint starts with (an unknown name is a 404 carrying
 * the core's message, which lists the names there are).
 *
 * <pre>
 * GET /v1/tables/orders
 * {"name":"orders","area":"data","rows":1500,
 *  "columns":[{"name":"o_orderkey","type":"BIGINT","nullable":false}, ...],
 *  "indexes":[{"name":"orders_pk","unique":true,"area":"index","state":"active",
 *              "columns":[{"name":"o_orderkey","descending":false}]}, ...]}
 * </pre>
 *
 * An index state is {@code active} (maintained, readable), {@code inactive} (waits for a rebuild)
 * or {@code none} (no tree yet), as {@code idxkit info} says.
 */
final class SchemaJson {
  private SchemaJson() {}

  static TableInfo table(Database db, String name) {
    try {
      return db.catalog().table(name);
    } catch (InvalidInputException e) {
      throw new HttpError(HttpResponseStatus.NOT_FOUND, e.getMessage());
    }
  }

  /** The named index of {@code table}; 404 if it does not exist or covers another table. */
  static IndexInfo index(Database db, TableInfo table, String name) {
    IndexInfo ix;
    try {
      ix = db.catalog().index(name);
    } catch (InvalidInputException e) {
      throw new HttpError(HttpResponseStatus.NOT_FOUND, e.getMessage());
    }
    if (ix.table().id() != table.id()) {
      throw new HttpError(
          HttpResponseStatus.NOT_FOUND,
          "index "
              + ix.name()
              + " is on table "
              + ix.table().name()
              + ", not "
              + table.name()
              + " (expected: /v1/tables/"
              + ix.table().name()
              + "/indexes/"
              + ix.name()
              + ")");
    }
    return ix;
  }

  static ObjectNode tables(Database db) {
    ObjectNode o = Json.object();
    ArrayNode a = o.putArray("tables");
    for (TableInfo t : db.catalog().tables()) {
      ObjectNode n = a.addObject();
      n.put("name", t.name());
      n.put("rows", db.table(t.name()).rowCount());
      n.put("columns", t.def().columns().size());
      ArrayNode ix = n.putArray("indexes");
      t.indexes().forEach(i -> ix.add(i.name()));
    }
    return o;
  }

  static ObjectNode table(Database db, TableInfo t) {
    DatabaseStats st = db.stats();
    Schema schema = db.schema();
    ObjectNode o = Json.object();
    o.put("name", t.name());
    o.put("area", schema.area(t.area()).name());
    o.put("rows", st.table(t.name()).rows());
    ArrayNode cols = o.putArray("columns");
    for (ColumnDef c : t.def().columns()) {
      ObjectNode n = cols.addObject();
      n.put("name", c.name());
      n.put("type", c.type().sql());
      n.put("nullable", c.nullable());
    }
    ArrayNode ixs = o.putArray("indexes");
    for (IndexInfo ix : t.indexes()) {
      ObjectNode n = ixs.addObject();
      n.put("name", ix.name());
      n.put("unique", ix.unique());
      n.put("area", schema.area(ix.area()).name());
      n.put("state", st.index(ix.name()).state().word());
      ArrayNode kc = n.putArray("columns");
      for (int i = 0; i < ix.columns().length; i++) {
        ObjectNode c = kc.addObject();
        c.put("name", t.def().columns().get(ix.columns()[i]).name());
        c.put("descending", ix.def().columns().get(i).descending());
      }
    }
    return o;
  }
}
