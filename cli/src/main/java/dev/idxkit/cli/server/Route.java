package dev.idxkit.cli.server;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A request's path matched to an endpoint, with its path parameters and its query parameters
 * checked.
 *
 * <pre>
 * GET  /                               the progress page (HTML)
 * GET  /v1/status                      server, database and job as JSON
 * GET  /metrics                        Prometheus text
 * GET  /v1/tables                      tables with row counts
 * GET  /v1/tables/{t}                  one table's columns and indexes
 * GET  /v1/tables/{t}/indexes/{i}      ?key=... a lookup; else ?from=&amp;to=&amp;limit=&amp;reverse= a scan
 * POST /v1/tables/{t}/rows             JSON Lines body: rows inserted in one transaction
 * </pre>
 *
 * Path segments are percent-decoded; table and index names compare without case, as in SQL. A query
 * parameter the endpoint does not know, or one given twice, is refused (400), so a typo such as
 * {@code form=} fails loudly instead of scanning everything.
 */
record Route(Endpoint endpoint, String table, String index, Map<String, String> query) {
  static final Set<String> READ_PARAMS = Set.of("key", "from", "to", "limit", "reverse", "columns");

  /** Matches {@code method} and {@code uri}; throws {@link HttpError} 400, 404 or 405. */
  static Route match(HttpMethod method, String uri) {
    QueryStringDecoder q;
    List<String> segs;
    String path;
    try {
      q = new QueryStringDecoder(uri);
      path = q.path();
      segs = segments(path);
      q.parameters(); // decodes now, so a bad escape in the query is a 400 here
    } catch (IllegalArgumentException e) {
      throw new HttpError(
          HttpResponseStatus.BAD_REQUEST, "malformed URI " + uri + " (" + e.getMessage() + ")");
    }
    int n = segs.size();
    if (segs.contains("")) {
      throw notFound(method, path);
    }
    Endpoint e;
    String table = null;
    String index = null;
    HttpMethod expected = HttpMethod.GET;
    if (n == 0) {
      e = Endpoint.PAGE;
    } else if (n == 1 && segs.get(0).equals("metrics")) {
      e = Endpoint.METRICS;
    } else if (n >= 2 && segs.get(0).equals("v1")) {
      String s1 = segs.get(1);
      if (n == 2 && s1.equals("status")) {
        e = Endpoint.STATUS;
      } else if (s1.equals("tables") && n == 2) {
        e = Endpoint.TABLES;
      } else if (s1.equals("tables") && n == 3) {
        e = Endpoint.TABLE;
        table = segs.get(2);
      } else if (s1.equals("tables") && n == 4 && segs.get(3).equals("rows")) {
        e = Endpoint.INSERT;
        table = segs.get(2);
        expected = HttpMethod.POST;
      } else if (s1.equals("tables") && n == 5 && segs.get(3).equals("indexes")) {
        table = segs.get(2);
        index = segs.get(4);
        e = q.parameters().containsKey("key") ? Endpoint.LOOKUP : Endpoint.SCAN;
      } else {
        throw notFound(method, path);
      }
    } else {
      throw notFound(method, path);
    }
    if (!method.equals(expected)) {
      throw HttpError.methodNotAllowed(method.name(), path, expected.name());
    }
    Set<String> allowed = e == Endpoint.LOOKUP || e == Endpoint.SCAN ? READ_PARAMS : Set.of();
    return new Route(e, table, index, query(q, allowed));
  }

  private static Map<String, String> query(QueryStringDecoder q, Set<String> allowed) {
    Map<String, String> out = new TreeMap<>();
    for (var p : q.parameters().entrySet()) {
      String name = p.getKey();
      if (!allowed.contains(name)) {
        throw new HttpError(
            HttpResponseStatus.BAD_REQUEST,
            "unknown query parameter '"
                + name
                + "' (expected: "
                + (allowed.isEmpty() ? "none here" : String.join(", ", sorted(allowed)))
                + ")");
      }
      if (p.getValue().size() > 1) {
        throw new HttpError(
            HttpResponseStatus.BAD_REQUEST,
            "query parameter '"
                + name
                + "' given "
                + p.getValue().size()
                + " times (expected: once)");
      }
      out.put(name, p.getValue().get(0));
    }
    return out;
  }

  private static List<String> sorted(Set<String> s) {
    return s.stream().sorted().toList();
  }

  /**
   * Segments of the decoded path (names cannot hold a '/'); an empty segment, from a doubled or
   * trailing slash, matches no endpoint.
   */
  private static List<String> segments(String path) {
    if (path.isEmpty() || path.equals("/")) {
      return List.of();
    }
    String p = path.startsWith("/") ? path.substring(1) : path;
    return List.of(p.split("/", -1));
  }

  private static HttpError notFound(HttpMethod method, String path) {
    return new HttpError(
        HttpResponseStatus.NOT_FOUND,
        "no endpoint "
            + method
            + " "
            + path
            + " (expected: GET /, /v1/status, /metrics, /v1/tables, /v1/tables/{table},"
            + " /v1/tables/{table}/indexes/{index}; POST /v1/tables/{table}/rows)");
  }
}
