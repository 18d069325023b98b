package dev.idxkit.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.testing.CrashCopy;
import dev.idxkit.core.testing.Seeds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint's double write (log format 4): every page a checkpoint writes home is first
 * written whole to a {@code dwb.N} file, sealed by a header written after an fsync. These are the
 * cases around it that {@link TornHomeWriteTest} (a home write cut mid-page) does not reach: a
 * checkpoint that fails twice, the second time while writing its double write, so that only the
 * first one's set protects the pages the first one tore; a set that never got its header; a sealed
 * set that lost bytes later; and no file left behind by checkpoints that finish.
 */
class DoubleWriteTest {
  static final long SEED = Seeds.seed();

  @TempDir Path tmp;

  private final FaultyFileIo io = new FaultyFileIo();

  @Test
  void aFinishedCheckpointLeavesNoDoubleWriteBehind() throws Exception {
    Path dir = tmp.resolve("db");
    ModelTable model = new ModelTable(SEED);
    try (Database db = Database.create(dir)) {
      db.execute(ModelTable.DDL);
      model.commit(db, 300);
      db.checkpoint();
      assertThat(doubleWrites(dir)).isEmpty();
      model.commit(db, 50);
    }
    assertThat(doubleWrites(dir)).as("after close").isEmpty();
  }

  /**
   * The first checkpoint tears a home page and fails; the database goes on; the second checkpoint
   * fails while writing its own double write. A crash now must recover from the first set: the
   * second never got its header, and the torn page's only whole copy is in the first.
   */
  @Test
  void aSecondCheckpointThatDiesInItsDoubleWriteLeavesTheFirstSetToRecoverFrom() throws Exception {
    SplittableRandom r = Seeds.random(SEED);
    String why = Seeds.reproduce(SEED, getClass());
    for (int trial = 0; trial < 4; trial++) {
      Path dir = tmp.resolve("t" + trial);
      String area = trial % 2 == 0 ? "data.area" : "index.area";
      ModelTable model = new ModelTable(r.nextLong());
      long cut = r.nextLong(1, 8192);
      String when = "trial " + trial + ", " + area + " cut after " + cut + " bytes; " + why;
      Database db = Database.create(dir, DatabaseOptions.defaults().withFileIo(io));
      try {
        TornHomeWriteTest.tearAHomeWrite(db, model, io, area, cut, 4, when);
        io.clear();
        List<Path> first = doubleWrites(dir);
        assertThat(first).as("the first set stays, " + when).hasSize(1);
        model.commit(db, 40);
        Fault dw = io.add(Fault.ioErrorAfter(p -> !first.contains(p) && isDoubleWrite(p), 20_000));
        assertThat(catchThrowable(db::checkpoint)).as(when).isInstanceOf(IdxkitIOException.class);
        assertThat(dw.hits()).as("the second set was cut, " + when).isGreaterThanOrEqualTo(1);
        io.clear();
        assertThat(doubleWrites(dir)).as(when).hasSize(2).containsAll(first);
        model.assertMatches(db, "after two failed checkpoints, " + when);
        Path crash = CrashCopy.of(dir, tmp.resolve("crash" + trial));
        try (Database copy = Database.open(crash)) {
          model.assertMatches(copy, "recovered, " + when);
          assertThat(copy.check().problems()).as(when).isEmpty();
        }
        assertThat(doubleWrites(crash)).as("the recovery checkpoint deleted both").isEmpty();
      } finally {
        io.clear();
        catchThrowable(db::close);
      }
    }
  }

  @Test
  void aDoubleWriteWithoutItsHeaderIsIgnoredAndRemoved() throws Exception {
    Path dir = tmp.resolve("db");
    ModelTable model = new ModelTable(SEED);
    Path crash;
    try (Database db = Database.create(dir)) {
      db.execute(ModelTable.DDL);
      model.commit(db, 300);
      crash = CrashCopy.of(dir, tmp.resolve("crash"));
    }
    // What a crash before the seal leaves: images, and a header page still zero.
    Path unsealed = crash.resolve("dwb.7");
    Files.write(unsealed, new byte[3 * 8192]);
    try (Database copy = Database.open(crash)) {
      model.assertMatches(copy, "recovered beside an unsealed double write");
    }
    assertThat(unsealed).doesNotExist();
  }

  @Test
  void aSealedDoubleWriteThatLostBytesRefusesTheOpenNamingIt() throws Exception {
    Path dir = tmp.resolve("db");
    ModelTable model = new ModelTable(SEED);
    Database db = Database.create(dir, DatabaseOptions.defaults().withFileIo(io));
    Path crash;
    try {
      db.execute(ModelTable.DDL);
      model.commit(db, 300);
      db.checkpoint();
      model.commit(db, 40);
      io.add(Fault.ioErrorAfter(Fault.named("data.area"), 100));
      assertThat(catchThrowable(db::checkpoint)).isInstanceOf(IdxkitIOException.class);
      io.clear();
      crash = CrashCopy.of(dir, tmp.resolve("crash"));
    } finally {
      catchThrowable(db::close);
    }
    Path set = doubleWrites(crash).get(0);
    // One bit of the first image, after its header: the set's checksum of that page fails.
    try (FileChannel ch =
        FileChannel.open(set, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, 8192 + 100);
      b.put(0, (byte) (b.get(0) ^ 0x10)).rewind();
      ch.write(b, 8192 + 100);
    }
    assertThatThrownBy(() -> Database.open(crash))
        .isInstanceOf(CorruptDatabaseException.class)
        .hasMessageContaining(set.toString())
        .hasMessageContaining("image 1 fails its checksum");
    assertThat(set).as("nothing deleted").exists();
  }

  private static boolean isDoubleWrite(Path p) {
    return p.getFileName().toString().startsWith("dwb.");
  }

  private static List<Path> doubleWrites(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(DoubleWriteTest::isDoubleWrite).sorted().toList();
    }
  }
}
