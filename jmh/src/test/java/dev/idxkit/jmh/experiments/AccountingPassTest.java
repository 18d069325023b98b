package dev.idxkit.jmh.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.Database;
import dev.idxkit.jmh.experiments.AccountingPass.Outcome;
import dev.idxkit.jmh.experiments.PassState.Measurement;
import dev.idxkit.jmh.report.Results;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accounting pass against a model (the tally computed straight from {@link AccountingData}),
 * uninterrupted and cancelled-then-resumed. Deterministic: the data set has a fixed seed, and the
 * cancel comes at the first checkpoint, whenever that is.
 */
class AccountingPassTest {
  static final AccountingData DATA = new AccountingData(12_000, 3_600, 99);

  @TempDir Path tmp;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void stop() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
  }

  /** What the pass must find: every object's contribution, straight from the generator. */
  static Tally model(AccountingData d) {
    Tally t = new Tally();
    for (long i = 0; i < d.objects; i++) {
      Object[] o = d.object(i);
      switch ((String) o[8]) {
        case "f" ->
            t.file((Integer) o[1], (Integer) o[2], (Integer) o[3], d.bitfileBytes(d.bitfileOf(i)));
        case "d" -> t.directories++;
        default -> t.links++;
      }
    }
    return t;
  }

  private Database build() throws Exception {
    return AccountingBench.openOrBuild(
        tmp.resolve("work"),
        DATA,
        false,
        2,
        Results.of("load", "table", "rows", "seconds", "rows_per_s", "index_build_seconds"),
        Database.DatabaseOptions.defaults());
  }

  @Test
  void anUninterruptedPassMatchesTheModelWithOneAndTwoReaders() throws Exception {
    Tally expected = model(DATA);
    assertThat(expected.files + expected.directories + expected.links).isEqualTo(DATA.objects);
    try (Database db = build()) {
      AccountingPass.Result r =
          new AccountingPass(
                  db, DATA, new int[] {1, 2}, 1000, 100, pool, AccountingPass.Listener.NONE)
              .run(false);
      assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
      assertThat(r.tally()).isEqualTo(expected);
      assertThat(r.tally().missing).isZero();
      assertThat(r.tally().mismatched).isZero();
      assertThat(r.measurements())
          .extracting(
              Measurement::readers, Measurement::phase, Measurement::objects, Measurement::resumed)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(1, 0, 3_600L, false),
              org.assertj.core.groups.Tuple.tuple(1, 1, 8_400L, false),
              org.assertj.core.groups.Tuple.tuple(2, 0, 3_600L, false),
              org.assertj.core.groups.Tuple.tuple(2, 1, 8_400L, false));
      assertThat(AccountingPass.unfinished(db)).as("resume point removed").isNull();
    }
  }

  @Test
  void aPassCancelledAtACheckpointResumesToTheSameTally() throws Exception {
    Tally expected = model(DATA);
    AtomicReference<AccountingPass> pass = new AtomicReference<>();
    AtomicInteger checkpoints = new AtomicInteger();
    try (Database db = build()) {
      AccountingPass.Listener cancelInRandomPhase =
          new AccountingPass.Listener() {
            @Override
            public void checkpoint(PassState s) {
              // The first checkpoint inside the random phase, with some of it done.
              if (s.phase == 1 && s.lookups > 0 && checkpoints.getAndIncrement() == 0) {
                pass.get().cancel();
              }
            }
          };
      pass.set(new AccountingPass(db, DATA, new int[] {2, 1}, 1500, 0, pool, cancelInRandomPhase));
      AccountingPass.Result first = pass.get().run(false);
      assertThat(first.outcome()).isEqualTo(Outcome.CANCELLED);
      PassState saved = AccountingPass.unfinished(db);
      assertThat(saved).isNotNull();
      assertThat(saved.config).isZero();
      assertThat(saved.phase).isEqualTo(1);
      assertThat(saved.objects).isPositive();
      assertThat(saved.tally.files + saved.tally.directories + saved.tally.links)
          .as("the checkpoint counts exactly the objects before its positions")
          .isEqualTo(DATA.clustered + saved.objects);
      assertThat(saved.objects).isLessThan(DATA.objects - DATA.clustered);
    }
    try (Database db = Database.open(tmp.resolve("work/db"))) {
      AccountingPass.Result second =
          new AccountingPass(
                  db, DATA, new int[] {2, 1}, 1500, 0, pool, AccountingPass.Listener.NONE)
              .run(true);
      assertThat(second.outcome()).isEqualTo(Outcome.COMPLETED);
      assertThat(second.tally()).isEqualTo(expected);
      List<Measurement> ms = second.measurements();
      assertThat(ms).hasSize(4);
      assertThat(ms.get(0).resumed()).isFalse();
      assertThat(ms.get(1).resumed()).as("the phase that was cancelled").isTrue();
      assertThat(ms.get(1).objects()).isEqualTo(DATA.objects - DATA.clustered);
      assertThat(AccountingPass.unfinished(db)).isNull();
    }
  }
}
