package dev.idxkit.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.internal.btree.BTree;
import dev.idxkit.core.internal.btree.TreeCursor;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.DdlParser;
import dev.idxkit.core.schema.Schema;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import dev.idxkit.core.spi.HeapPage;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageAccess;
import dev.idxkit.core.spi.PageType;
import dev.idxkit.core.spi.RecordLayout;
import dev.idxkit.core.testing.MemoryPageAccess;
import dev.idxkit.idxbuild.temp.SrtFile;
import dev.idxkit.idxbuild.temp.SrtFileException;
import dev.idxkit.loader.input.CsvOptions;
import dev.idxkit.loader.input.CsvSource;
import dev.idxkit.loader.input.RowReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Coverage-guided fuzz targets (Jazzer) for the formats idxkit reads from disk or from users: the
 * record decoder, heap and B+tree page images, CSV files and {@code .srt} files. Each asserts the
 * readers' contract: whatever the bytes, only idxkit's typed exceptions escape ({@link
 * CorruptPageException}, {@link InvalidInputException} and the other {@link IdxkitException}s) -
 * never a NullPointerException, an IndexOutOfBoundsException, an OutOfMemoryError or a hang.
 *
 * <p>Pages and records are fuzzed structure-aware: a valid image is built from fuzzer-chosen
 * content and then damaged at fuzzer-chosen offsets (or replaced by raw bytes), so the fuzzer gets
 * past the headers quickly. Page readers "trust the page" once verified (see {@link
 * HeapPage#verify}); the targets check that contract: the verifier and the tree checker may only
 * report corruption, and a page or tree they pass must read without any exception.
 *
 * <p>How it runs: without {@code JAZZER_FUZZ} (a plain {@code mvn verify}) each target runs in
 * regression mode over its stored inputs ({@code src/test/resources/dev/idxkit/fuzz/
 * FormatFuzzTestInputs/METHOD/}, found crashes go there) and an empty input. The src-test pom sets
 * {@code JAZZER_FUZZ=1} for Surefire, so each target also fuzzes for its {@code maxDuration}.
 */
class FormatFuzzTest {
  private static final int PAGE_SIZE = Page.MIN_SIZE;

  private static final ColumnType[] TYPES = {
    ColumnType.of(TypeKind.BIGINT),
    ColumnType.of(TypeKind.INT),
    ColumnType.of(TypeKind.SMALLINT),
    ColumnType.of(TypeKind.DOUBLE),
    ColumnType.decimal(9, 2),
    ColumnType.decimal(30, 5),
    ColumnType.varchar(20),
    ColumnType.of(TypeKind.TEXT),
    ColumnType.of(TypeKind.DATE),
    ColumnType.of(TypeKind.TIMESTAMP),
    ColumnType.of(TypeKind.BOOLEAN),
    ColumnType.varbinary(16)
  };

  // ---- the record decoder

  @FuzzTest(maxDuration = "6s")
  void recordDecoder(FuzzedDataProvider data) {
    RecordLayout layout = layout(data);
    byte[] rec;
    if (data.consumeBoolean()) {
      rec = layout.encode(row(data, layout));
      damage(data, rec);
      if (data.consumeBoolean() && rec.length > 0) {
        rec = java.util.Arrays.copyOf(rec, data.consumeInt(0, rec.length));
      }
    } else {
      rec = data.consumeRemainingAsBytes();
    }
    int len = rec.length;
    BytesStore<?, ?> store = BytesStore.wrap(rec);
    onlyIdxkit(() -> layout.decode(store, 0, len));
    for (int c = 0; c < layout.columnCount(); c++) {
      int column = c;
      onlyIdxkit(() -> layout.decodeColumn(store, 0, len, column));
      onlyIdxkit(() -> layout.isNull(store, 0, len, column));
    }
  }

  // ---- page images

  /** A heap page or the pages of a B+tree, as the readers get them from disk. */
  @FuzzTest(maxDuration = "10s")
  void pageImage(FuzzedDataProvider data) {
    if (data.consumeBoolean()) {
      heapPage(data);
    } else {
      btreePages(data);
    }
  }

  private static void heapPage(FuzzedDataProvider data) {
    RecordLayout layout = layout(data);
    Page p = new Page(BytesStore.wrap(new byte[PAGE_SIZE]), 0, PAGE_SIZE);
    if (data.consumeBoolean()) {
      p.format(PageType.HEAP, 1, 0);
      HeapPage.init(p);
      int rows = data.consumeInt(0, 40);
      for (int i = 0; i < rows; i++) {
        byte[] rec = layout.encode(row(data, layout));
        // Longer records go to overflow pages; fits() refuses to be asked about them.
        if (rec.length <= HeapPage.maxInlineLength(PAGE_SIZE) && HeapPage.fits(p, rec.length)) {
          int slot = HeapPage.insert(p, rec, 0, rec.length);
          if (data.consumeInt(0, 5) == 0) {
            HeapPage.delete(p, slot);
          }
        }
      }
      byte[] image = p.getBytes(0, PAGE_SIZE);
      damage(data, image);
      p.putBytes(0, image, 0, PAGE_SIZE);
    } else {
      byte[] raw = data.consumeRemainingAsBytes();
      p.putBytes(0, raw, 0, Math.min(raw.length, PAGE_SIZE));
    }
    try {
      HeapPage.verify(p, "fuzz.area");
    } catch (CorruptPageException e) {
      assertThat(e.page()).isEqualTo(p.pageNo());
      return; // the documented outcome for a damaged page
    }
    // A page that passes verify is trusted by every reader: nothing may fail on it but a record
    // whose bytes do not decode (a CorruptRecordException, an IdxkitException).
    for (int s = 0; s < HeapPage.slotCount(p); s++) {
      if (!HeapPage.isLive(p, s) || HeapPage.isOverflow(p, s)) {
        continue;
      }
      byte[] rec = HeapPage.read(p, s);
      onlyIdxkit(() -> layout.decode(BytesStore.wrap(rec), 0, rec.length));
    }
    HeapPage.freeSpace(p);
    HeapPage.liveCount(p);
  }

  private static void btreePages(FuzzedDataProvider data) {
    MemoryPageAccess memory = new MemoryPageAccess(PAGE_SIZE);
    long root = BTree.create(memory);
    BTree built = new BTree(memory, root, "fuzz_ix");
    int entries = data.consumeInt(0, 400);
    for (int i = 0; i < entries; i++) {
      byte[] entry = data.consumeBytes(data.consumeInt(1, 40));
      if (entry.length > 0 && !built.contains(entry)) {
        built.insert(entry);
      }
    }
    root = built.root();
    int pages = memory.livePages();
    Pages damaged = new Pages(memory, pages + 1);
    int hits = data.consumeInt(0, 8);
    for (int i = 0; i < hits; i++) {
      long no = data.consumeLong(1, pages);
      Page p = memory.read(no);
      int off = data.consumeInt(0, PAGE_SIZE - 1);
      p.putU8(off, data.consumeInt(0, 255));
    }
    if (data.consumeBoolean()) {
      byte[] raw = data.consumeRemainingAsBytes();
      Page p = memory.read(root);
      p.putBytes(0, raw, 0, Math.min(raw.length, PAGE_SIZE));
    }
    long rootNo = root;
    List<String> problems = new ArrayList<>();
    // The checker reports, never throws (TreeChecker's contract for idxkit check).
    BTree.check(damaged, rootNo, problems::add);
    if (!problems.isEmpty()) {
      onlyIdxkit(() -> new BTree(damaged, rootNo, "fuzz_ix").contains(new byte[] {1, 2, 3}));
      return;
    }
    // A tree the checker passes must read without any exception.
    BTree tree = new BTree(damaged, rootNo, "fuzz_ix");
    TreeCursor c = tree.cursor();
    List<byte[]> seen = new ArrayList<>();
    for (boolean ok = c.first(); ok; ok = c.next()) {
      seen.add(c.entry());
    }
    for (byte[] e : seen) {
      assertThat(tree.contains(e)).as("a checked tree finds its own entries").isTrue();
    }
    for (boolean ok = c.last(); ok; ok = c.prev()) {
      c.entry();
    }
  }

  /**
   * The pages of one area as a reader gets them: a page past the end or not stamped with its own
   * number is a {@link CorruptPageException}, as {@code PageFile} reports it. Checksums are not
   * verified: the images stand for pages whose checksum matched.
   */
  private static final class Pages implements PageAccess {
    private final MemoryPageAccess memory;
    private final long end;

    Pages(MemoryPageAccess memory, long end) {
      this.memory = memory;
      this.end = end;
    }

    @Override
    public int pageSize() {
      return memory.pageSize();
    }

    @Override
    public int areaId() {
      return memory.areaId();
    }

    @Override
    public String name() {
      return "fuzz.area";
    }

    @Override
    public Page read(long pageNo) {
      if (pageNo <= 0 || pageNo >= end) {
        throw new CorruptPageException(Path.of(name()), pageNo, "page past the end");
      }
      Page p = memory.read(pageNo);
      if (p.pageNo() != pageNo) {
        throw new CorruptPageException(
            Path.of(name()), pageNo, "page stamped " + p.pageNo() + " (expected: " + pageNo + ")");
      }
      return p;
    }

    @Override
    public Page write(long pageNo) {
      throw new UnsupportedOperationException("read-only");
    }

    @Override
    public Page allocate(PageType type) {
      throw new UnsupportedOperationException("read-only");
    }

    @Override
    public void free(long pageNo) {
      throw new UnsupportedOperationException("read-only");
    }
  }

  // ---- CSV

  private static final TableDef CSV_TABLE =
      DdlParser.apply(
              Schema.empty(),
              "CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR(10), price DECIMAL(6,2),"
                  + " day DATE, at TIMESTAMP, ok BOOLEAN, r DOUBLE, b VARBINARY(4),"
                  + " PRIMARY KEY (id));",
              "fuzz.sql")
          .requireTable("t");

  @FuzzTest(maxDuration = "8s")
  void csvFile(FuzzedDataProvider data) throws IOException {
    CsvOptions options =
        CsvOptions.defaults()
            .withHeader(data.consumeBoolean())
            .withChunkBytes(data.consumeInt(16, 256))
            .withMaxRecordBytes(data.consumeInt(16, 512))
            .withTrailingDelimiter(data.consumeBoolean());
    if (data.consumeBoolean()) {
      options = options.withNullMarker("\\N");
    }
    byte[] bytes = data.consumeRemainingAsBytes();
    Path file = Files.createTempFile("fuzz-", ".csv");
    try {
      Files.write(file, bytes);
      CsvOptions o = options;
      onlyIdxkit(
          () -> {
            try (CsvSource source = CsvSource.open(file, CSV_TABLE, o)) {
              new RowReader(source).forEachRemaining(r -> {});
            }
            return null;
          });
    } finally {
      Files.deleteIfExists(file);
    }
  }

  // ---- .srt

  @FuzzTest(maxDuration = "5s")
  void srtFile(byte[] bytes) throws IOException {
    Path file = Files.createTempFile("fuzz-", ".srt");
    try {
      Files.write(file, bytes);
      try {
        SrtFile srt = SrtFile.parse(file);
        assertThat(srt.entries()).isNotEmpty();
        for (SrtFile.Entry e : srt.entries()) {
          assertThat(e.limitKb()).isBetween(0L, SrtFile.MAX_LIMIT_KB);
          assertThat(srt.where(e)).isEqualTo(file + ":" + e.line());
        }
        // validate() is not called: it creates probe files in whatever directories were named.
      } catch (SrtFileException e) {
        assertThat(e.getMessage()).startsWith(file.toString());
        assertThat(e.problems()).isNotEmpty();
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  // ---- helpers

  private interface Read {
    Object run() throws Exception;
  }

  /** Runs {@code read}; an {@link IdxkitException} is an answer, anything else a finding. */
  private static void onlyIdxkit(Read read) {
    try {
      read.run();
    } catch (IdxkitException e) {
      assertThat(e.getMessage()).as("an idxkit error says what is wrong").isNotBlank();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new AssertionError("not an idxkit exception: " + e, e);
    }
  }

  private static RecordLayout layout(FuzzedDataProvider data) {
    int n = data.consumeInt(1, 8);
    List<ColumnType> types = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      types.add(TYPES[data.consumeInt(0, TYPES.length - 1)]);
    }
    return new RecordLayout(types);
  }

  private static Object[] row(FuzzedDataProvider data, RecordLayout layout) {
    Object[] row = new Object[layout.columnCount()];
    for (int i = 0; i < row.length; i++) {
      if (data.consumeInt(0, 7) == 0) {
        continue; // NULL
      }
      ColumnType t = layout.types().get(i);
      row[i] =
          switch (t.kind()) {
            case BIGINT -> data.consumeLong();
            case INT -> data.consumeInt();
            case SMALLINT -> data.consumeShort();
            case DOUBLE -> data.consumeDouble();
            case DECIMAL ->
                BigDecimal.valueOf(data.consumeLong(-999_999_999L, 999_999_999L), t.scale());
            case VARCHAR -> data.consumeString(t.length());
            case TEXT -> data.consumeString(200);
            case DATE -> LocalDate.ofEpochDay(data.consumeInt(-100_000, 100_000));
            case TIMESTAMP ->
                LocalDateTime.of(2000, 1, 1, 0, 0).plusSeconds(data.consumeInt(0, 1_000_000_000));
            case BOOLEAN -> data.consumeBoolean();
            case VARBINARY -> data.consumeBytes(t.length());
          };
    }
    return row;
  }

  /** Overwrites up to 8 fuzzer-chosen bytes of {@code b}. */
  private static void damage(FuzzedDataProvider data, byte[] b) {
    if (b.length == 0) {
      return;
    }
    int hits = data.consumeInt(0, 8);
    for (int i = 0; i < hits; i++) {
      b[data.consumeInt(0, b.length - 1)] = data.consumeByte();
    }
  }
}
