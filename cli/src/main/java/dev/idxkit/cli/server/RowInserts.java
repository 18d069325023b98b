package dev.idxkit.cli.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.output.Json;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.InputRow;
import dev.idxkit.loader.input.JsonLinesOptions;
import dev.idxkit.loader.input.JsonLinesReader;
import dev.idxkit.loader.input.RejectedRow;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * {@code POST /v1/tables/{t}/rows}: every row of the JSON Lines body inserted in one transaction,
 * all or none. Runs on the server's single write thread, so requests that write queue there rather
 * than on the store's writer lock, and reads go on meanwhile (they see the rows at commit).
 *
 * <pre>
 * POST /v1/tables/kv/rows
 * {"k": 1, "v": 10}
 * {"k": 2, "v": null}
 *
 * 200 {"table":"kv","inserted":2,"rids":["1:0","1:1"]}
 * </pre>
 *
 * RIDs are {@code page:slot} as {@code idxkit} prints them. Rows are read by the loader's JSON
 * Lines reader ({@link JsonLinesReader}: the same conversions as {@code idxkit load --jsonl}). A
 * row that does not parse or fit, or that a unique index refuses, rolls the whole request back and
 * is named by its line (and column, where it has one), as a load's reject file would name it: 400
 * for bad input, 409 for a duplicate key. The commit uses the database's durability (fsync by
 * default), so a 200 means the rows survive a crash.
 *
 * <p>Memory: the body (at most the server's body limit) is copied once into a byte array, rows are
 * parsed one at a time as they are inserted, and the transaction holds the pages it changes.
 */
final class RowInserts {
  private RowInserts() {}

  static ObjectNode insert(Database db, String tableName, byte[] body, ServerMetrics metrics) {
    TableInfo info = SchemaJson.table(db, tableName);
    Table table = db.table(info.name());
    JsonLinesReader reader = new JsonLinesReader(info.def(), JsonLinesOptions.defaults(), body);
    ObjectNode o = Json.object();
    o.put("table", info.name());
    ArrayNode rids = Json.object().arrayNode();
    long n = 0;
    try (Transaction tx = db.begin()) {
      while (reader.hasNext()) {
        InputRecord r = reader.next();
        if (r instanceof RejectedRow bad) {
          throw new HttpError(
              HttpResponseStatus.BAD_REQUEST, bad.describe() + "; nothing was inserted");
        }
        try {
          rids.add(Rid.toString(tx.insert(table, ((InputRow) r).values())));
        } catch (DuplicateKeyException e) {
          throw new HttpError(
              HttpResponseStatus.CONFLICT,
              "line " + r.line() + ": " + e.getMessage() + "; nothing was inserted");
        } catch (IdxkitException e) {
          if (!e.isBadInput()) {
            throw e;
          }
          throw new HttpError(
              HttpResponseStatus.BAD_REQUEST,
              "line " + r.line() + ": " + e.getMessage() + "; nothing was inserted");
        }
        n++;
      }
      if (n == 0) {
        throw new HttpError(
            HttpResponseStatus.BAD_REQUEST,
            "no rows in the body (expected: JSON Lines, one object per row, column name to value)");
      }
      tx.commit();
    }
    metrics.rowsInserted(n);
    o.put("inserted", n);
    o.set("rids", rids);
    return o;
  }
}
