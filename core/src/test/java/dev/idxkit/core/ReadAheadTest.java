package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.internal.io.Madvise;
import dev.idxkit.core.spi.FileIo;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database whose mappings cannot be advised (another OS, a kernel that refuses the call) works as
 * one that can, and says so in its stats ({@code idxkit info}'s read-ahead line).
 */
class ReadAheadTest {
  @TempDir Path dir;

  /** Opens files as usual and refuses every madvise, as a kernel without it would. */
  private static final class RefusingIo implements FileIo {
    final AtomicInteger refusals = new AtomicInteger();

    @Override
    public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
      return FileChannel.open(path, options);
    }

    @Override
    public void advise(long address, long length, Advice advice) throws IOException {
      refusals.incrementAndGet();
      throw new IOException("madvise refused: Invalid argument (injected)");
    }
  }

  @Test
  void everythingWorksWhenTheAdviceIsRefused() {
    RefusingIo io = new RefusingIo();
    Path db = dir.resolve("db");
    try (Database d = Database.create(db, DatabaseOptions.defaults().withFileIo(io))) {
      fill(d);
      check(d);
    }
    try (Database d = Database.open(db, DatabaseOptions.defaults().withFileIo(io))) {
      check(d);
      DatabaseStats.ReadAhead ra = d.stats().readAhead();
      assertThat(ra.controlled()).isFalse();
      assertThat(ra.describe())
          .startsWith("not controlled: ")
          .contains("Invalid argument (injected)")
          .contains(".area");
    }
    assertThat(io.refusals.get()).isPositive();
  }

  @Test
  void statsSayReadAheadIsControlledWhereMadviseWorks() {
    assumeTrue(Madvise.unavailable() == null, "madvise: " + Madvise.unavailable());
    try (Database d = Database.create(dir.resolve("db"))) {
      fill(d);
      check(d);
      DatabaseStats.ReadAhead ra = d.stats().readAhead();
      assertThat(ra.controlled()).as(ra.describe()).isTrue();
      assertThat(ra.describe()).startsWith("controlled (madvise");
    }
  }

  private static void fill(Database d) {
    d.execute("CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR(200)); CREATE INDEX t_v ON t (v)");
    try (Transaction tx = d.begin()) {
      for (long k = 0; k < 5_000; k++) {
        tx.insert(d.table("t"), k, "value " + (k * 7919 % 5_000) + " " + "x".repeat(100));
      }
      tx.commit();
    }
  }

  private static void check(Database d) {
    for (long k = 0; k < 5_000; k += 97) {
      assertThat(d.index("t_pk").get(k)).hasSize(1);
      assertThat(d.index("t_pk").get(k).get(0).get(0)).isEqualTo(k);
    }
    long rows = 0;
    try (RowCursor c = d.table("t").scan()) {
      while (c.hasNext()) {
        c.next();
        rows++;
      }
    }
    assertThat(rows).isEqualTo(5_000);
    try (RowCursor c = d.index("t_v").scan()) {
      long n = 0;
      while (c.hasNext()) {
        c.next();
        n++;
      }
      assertThat(n).isEqualTo(5_000);
    }
  }
}
