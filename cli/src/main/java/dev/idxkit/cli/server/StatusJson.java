package dev.idxkit.cli.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idxkit.cli.output.Json;
import dev.idxkit.core.Database;
import dev.idxkit.core.DatabaseStats;

/**
 * {@code GET /v1/status}: the server, the database it serves (if any) and the job beside it (if
 * any), as one JSON object. The progress page polls it; so can a script.
 *
 * <pre>
 * {"server":  {"mode":"read-only","transport":"epoll","url":"http://127.0.0.1:7070/",
 *              "uptimeSeconds":12.5,"connections":3,"requests":1042},
 *  "database":{"path":"/data/shop.db","pageSize":8192,"generation":7,"walBytes":32,
 *              "committedImageBytes":0,"tables":[{"name":"orders","rows":1500}]},
 *  "job":     {"name":"idxbuild shop.db","state":"running","message":"","elapsedSeconds":61.2,
 *              "phases":[{"name":"scan","state":"done","done":41230,"total":41230,"unit":"pages",
 *                         "fraction":1.0,"ratePerSecond":9811.0,"etaSeconds":null,
 *                         "elapsedSeconds":4.2}, ...],
 *              "warnings":[]}}
 * </pre>
 *
 * {@code database} and {@code job} are null when the server has none.
 */
final class StatusJson {
  private StatusJson() {}

  static ObjectNode build(Api api) {
    ObjectNode o = Json.object();
    ObjectNode s = o.putObject("server");
    s.put("mode", api.config().writable() ? "writable" : "read-only");
    s.put("transport", api.transport().label());
    s.put("url", api.url());
    s.put("uptimeSeconds", round(api.uptimeSeconds()));
    s.put("connections", api.connections().open.get());
    s.put("requests", api.metrics().requests());
    Database db = api.databaseOrNull();
    if (db == null) {
      o.putNull("database");
    } else {
      o.set("database", database(db));
    }
    JobProgress job = api.job();
    if (job == null) {
      o.putNull("job");
    } else {
      o.set("job", job(job.snapshot()));
    }
    return o;
  }

  private static ObjectNode database(Database db) {
    DatabaseStats st = db.stats();
    ObjectNode d = Json.object();
    d.put("path", st.dir().toString());
    d.put("pageSize", st.pageSize());
    d.put("generation", st.generation());
    d.put("walBytes", st.logBytes());
    d.put("committedImageBytes", st.committedImageBytes());
    d.put("bufferedChanges", st.bufferedChanges());
    ArrayNode tables = d.putArray("tables");
    for (DatabaseStats.TableStats t : st.tables()) {
      ObjectNode n = tables.addObject();
      n.put("name", t.name());
      n.put("rows", t.rows());
    }
    return d;
  }

  static ObjectNode job(JobProgress.Snapshot s) {
    ObjectNode j = Json.object();
    j.put("name", s.job());
    j.put("state", s.state().label());
    j.put("message", s.message());
    j.put("elapsedSeconds", round(s.elapsedSeconds()));
    ArrayNode phases = j.putArray("phases");
    for (JobProgress.PhaseView p : s.phases()) {
      ObjectNode n = phases.addObject();
      n.put("name", p.name());
      n.put("state", p.state().label());
      n.put("done", p.done());
      n.put("total", p.total());
      n.put("unit", p.unit());
      n.put("fraction", round(p.fraction()));
      n.put("ratePerSecond", round(p.ratePerSecond()));
      if (p.etaSeconds() == null) {
        n.putNull("etaSeconds");
      } else {
        n.put("etaSeconds", round(p.etaSeconds()));
      }
      n.put("elapsedSeconds", round(p.elapsedSeconds()));
    }
    ArrayNode w = j.putArray("warnings");
    s.warnings().forEach(w::add);
    ArrayNode plan = j.putArray("plan");
    s.plan().forEach(plan::add);
    ObjectNode temp = j.putObject("tempBytes");
    s.tempBytes().forEach(temp::put);
    ArrayNode report = j.putArray("report");
    s.report().forEach(report::add);
    return j;
  }

  /** Three decimals are plenty for people and keep the JSON short. */
  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
