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
 * RIDs are {@code page:slot} as {@code idxkit} prints them. A row that does not parse or fit, or
 * that a unique index refuses, rolls the whole request back and is named by its line: 400 for bad
 * input, 409 for a duplicate key. The commit uses the database's durability (fsync by default), so
 * a 200 means the rows survive a crash.
 *
 * <p>Memory: the body (at most the server's body limit) is copied once into a byte array, rows are
 * parsed one at a time as they are inserted, and the transaction holds the pages it changes.
 */
final class RowInserts {
  private RowInserts() {}

  static ObjectNode insert(Database db, String tableName, byte[] body, ServerMetrics metrics) {
    TableInfo info = SchemaJson.table(db, tableName);
    Table table = db.table(info.name());
    JsonRowReader reader = new JsonRowReader(info.def(), body);
    ObjectNode o = Json.object();
    o.put("table", info.name());
    ArrayNode rids = Json.object().arrayNode();
    long n = 0;
    try (Transaction tx = db.begin()) {
      Object[] row;
      while ((row = reader.next()) != null) {
        try {
          rids.add(Rid.toString(tx.insert(table, row)));
        } catch (DuplicateKeyException e) {
          throw new HttpError(
              HttpResponseStatus.CONFLICT,
              "line " + reader.line() + ": " + e.getMessage() + "; nothing was inserted");
        } catch (IdxkitException e) {
          if (!e.isBadInput()) {
            throw e;
          }
          throw new HttpError(
              HttpResponseStatus.BAD_REQUEST,
              "line " + reader.line() + ": " + e.getMessage() + "; nothing was inserted");
        }
        n++;
      }
      if (n == 0) {
        throw new HttpError(
            HttpResponseStatus.BAD_REQUEST,
            "no rows in the body (expected: JSON Lines, one object per row, column name to value)");
      }
      tx.commit();
    } catch (HttpError e) {
      throw e;
    } catch (IdxkitException e) {
      if (e.isBadInput()) {
        // From the reader: the line is in the message already.
        throw new HttpError(
            HttpResponseStatus.BAD_REQUEST, e.getMessage() + "; nothing was inserted");
      }
      throw e;
    }
    metrics.rowsInserted(n);
    o.put("inserted", n);
    o.set("rids", rids);
    return o;
  }
}
