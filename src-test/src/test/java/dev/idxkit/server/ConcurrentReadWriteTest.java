package dev.idxkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idxkit.cli.server.IdxkitServer;
import dev.idxkit.cli.server.ServerConfig;
import dev.idxkit.core.Database;
import dev.idxkit.core.testing.Seeds;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers during writes see whole transactions only. Writers post transactions of {@value #N} rows
 * that share a marker ({@code txn}); readers, meanwhile, look markers up and scan marker ranges and
 * must find every marker with all {@value #N} rows or none, and a marker once seen must stay seen.
 * Everything goes over HTTP, through the server's one write thread and its read pool.
 *
 * <p>Scans are kept under 256 rows, the store's read batch: one batch is read under one read lock
 * and so sees one committed state; a longer scan is read-committed batch by batch (documented in
 * {@code IndexScan}), where a later batch may see later commits. The test is randomized (which
 * markers readers pick) with a printed seed; the interleaving is the machine's.
 */
class ConcurrentReadWriteTest {
  static {
    NettyLeaks.install();
  }

  static final int N = 20;
  static final int WRITERS = 2;
  static final int TXNS_PER_WRITER = Integer.getInteger("idxkit.test.txns", 40);
  static final int READERS = 3;

  @TempDir Path tmp;
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  final ObjectMapper json = new ObjectMapper();

  @Test
  void readersSeeOnlyWholeTransactions() throws Exception {
    long seed = Seeds.seed();
    String repro = Seeds.reproduce(seed, getClass());
    Path dir = tmp.resolve("batch.db");
    try (Database db = Database.create(dir)) {
      db.execute(
          "CREATE TABLE batch (id BIGINT NOT NULL, txn BIGINT NOT NULL, pos INT NOT NULL,"
              + " PRIMARY KEY (id)); CREATE INDEX batch_txn ON batch (txn, pos);");
    }
    List<String> log = new CopyOnWriteArrayList<>();
    int txns = WRITERS * TXNS_PER_WRITER;
    AtomicInteger writersLeft = new AtomicInteger(WRITERS);
    AtomicLong lookups = new AtomicLong();
    AtomicLong partial = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
    try (Database db = Database.open(dir);
        IdxkitServer server =
            IdxkitServer.start(
                ServerConfig.defaults().withListen("127.0.0.1", 0).withWritable(true),
                db,
                null,
                log::add)) {
      String base = server.url() + "v1/tables/batch/";
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        futures.add(
            pool.submit(
                () -> {
                  try {
                    for (int i = 0; i < TXNS_PER_WRITER; i++) {
                      long txn = 1 + writer + (long) i * WRITERS; // writers interleave markers
                      StringBuilder body = new StringBuilder();
                      for (int pos = 0; pos < N; pos++) {
                        body.append("{\"id\":")
                            .append(txn * N + pos)
                            .append(",\"txn\":")
                            .append(txn)
                            .append(",\"pos\":")
                            .append(pos)
                            .append("}\n");
                      }
                      HttpResponse<String> r = post(base + "rows", body.toString());
                      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    }
                  } finally {
                    writersLeft.decrementAndGet();
                  }
                  return null;
                }));
      }
      for (int r = 0; r < READERS; r++) {
        SplittableRandom random = new SplittableRandom(seed + r);
        futures.add(
            pool.submit(
                () -> {
                  boolean[] seen = new boolean[txns + 2];
                  while (writersLeft.get() > 0) {
                    long txn = 1 + random.nextInt(txns);
                    if (random.nextBoolean()) {
                      int got = rows(get(base + "indexes/batch_txn?key=" + txn)).size();
                      check(txn, got, seen, partial, repro);
                    } else {
                      long to = Math.min(txns, txn + 1 + random.nextInt(10)); // <= 11 x 20 rows
                      TreeMap<Long, Integer> byTxn = new TreeMap<>();
                      for (JsonNode row :
                          rows(get(base + "indexes/batch_txn?from=" + txn + "&to=" + to))) {
                        byTxn.merge(row.get("txn").asLong(), 1, Integer::sum);
                      }
                      for (long t = txn; t <= to; t++) {
                        check(t, byTxn.getOrDefault(t, 0), seen, partial, repro);
                      }
                    }
                    lookups.incrementAndGet();
                  }
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get(5, TimeUnit.MINUTES);
      }
      // Afterwards every transaction is there, whole.
      List<JsonNode> all = rows(get(base + "indexes/batch_pk?limit=0"));
      assertThat(all).as(repro).hasSize(txns * N);
      assertThat(db.check().problems()).as(repro).isEmpty();
    } finally {
      pool.shutdownNow();
    }
    assertThat(partial.get()).as("markers seen with some but not all rows; " + repro).isZero();
    assertThat(lookups.get()).as("reads made while the writers ran").isPositive();
    assertThat(log).isEmpty();
    NettyLeaks.assertNone();
    System.out.println(
        "ConcurrentReadWriteTest: "
            + lookups.get()
            + " reads during "
            + txns
            + " transactions; "
            + repro);
  }

  private void check(long txn, int rows, boolean[] seen, AtomicLong partial, String repro) {
    if (rows != 0 && rows != N) {
      partial.incrementAndGet();
      throw new AssertionError("marker " + txn + " has " + rows + " of " + N + " rows; " + repro);
    }
    if (rows == N) {
      seen[(int) txn] = true;
    } else if (seen[(int) txn]) {
      throw new AssertionError("marker " + txn + " was seen, then vanished; " + repro);
    }
  }

  private HttpResponse<String> post(String url, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private List<JsonNode> rows(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    List<JsonNode> out = new ArrayList<>();
    for (String l : r.body().split("\n")) {
      if (!l.isEmpty()) {
        out.add(json.readTree(l));
      }
    }
    return out;
  }
}
