package dev.idxkit.loader.input;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.loader.input.CsvRecordScanner.Stop;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A CSV file (RFC 4180, UTF-8) as a {@link RowSource}.
 *
 * <h2>Reading</h2>
 *
 * <ol>
 *   <li>{@link #open}: skips a UTF-8 byte order mark (a UTF-16 or UTF-32 one is an error: only
 *       UTF-8 is read), reads the header record if {@link CsvOptions#header()} and maps its names
 *       to the table's columns - an unknown, missing, duplicate or empty name stops here, with the
 *       file and line 1 in the message - then positions at the first data record or at the given
 *       {@link ResumePoint}.
 *   <li>{@link #nextChunk()}: fills a window of {@link CsvOptions#chunkBytes()} from the file,
 *       {@link CsvRecordScanner scans} it for record boundaries (quote-aware, UTF-8-validating,
 *       counting lines), and cuts the window after its last complete record. The chunk owns its
 *       bytes and the scanner's record index; the partial record left over starts the next window.
 *       A record longer than the window grows it, up to {@link CsvOptions#maxRecordBytes()}.
 *   <li>{@link CsvChunk#parse()} (any thread): fastcsv and {@link dev.idxkit.core.schema.Values}
 *       turn the records into rows or rejects.
 * </ol>
 *
 * <h2>Why this split</h2>
 *
 * Measured with {@code CsvThroughput} (test sources) on TPC-H lineitem as CSV (75.6 MB, 600,572
 * rows, 16 columns, comments quoted where they hold commas) on a 2-core machine shared with other
 * work: cutting alone (read + scan) costs 0.12-0.17 s of CPU, about 4 million rows per CPU second
 * (up to 640 MB/s wall), while cutting plus parsing costs 0.6-0.8 s of CPU, about 1 microsecond per
 * row. The cut is about a sixth of the work, so one cutter keeps several parsing cores busy: with
 * the cutter on one thread and two parse workers the same file read at 1.2-1.7 million rows/s
 * (155-216 MB/s) whenever the machine left the process both cores. The alternative - fastcsv
 * parsing sequentially, values converted in parallel - would keep fastcsv's field splitting (about
 * a fifth of the per-row CPU in the profile) and its String copies on the sequential path, and
 * still need byte offsets it does not give for resume points.
 *
 * <p>Chunk boundaries are exact (the scan started at a known record boundary), so nothing is
 * speculative and line numbers need no fix-up: every chunk knows its first line.
 *
 * <h2>Line numbers and resume points</h2>
 *
 * Lines are physical lines of the file, 1-based, the header included: a record's line is where it
 * starts, and a quoted field with line breaks makes the next record's line jump accordingly. A
 * record's resume point is the byte offset and line just past its line break; opening at it skips
 * exactly the records before.
 */
public final class CsvSource implements RowSource {
  private final Path file;
  private final CsvLayout layout;
  private final CsvRecordScanner scanner;
  private final FileWindow window;
  private final EncodedRows.Spares spares = new EncodedRows.Spares();
  private final int maxWindow;
  private long line;
  private long chunks;
  private boolean closed;

  private CsvSource(Path file, CsvLayout layout, ResumePoint start) {
    this.file = file;
    this.layout = layout;
    CsvOptions options = layout.options();
    this.scanner =
        new CsvRecordScanner(options.delimiter(), options.quote(), options.maxRecordBytes());
    this.window = new FileWindow(file, start.offset(), options.chunkBytes());
    this.maxWindow =
        (int)
            Math.min(
                Integer.MAX_VALUE - 16, (long) options.maxRecordBytes() + options.chunkBytes());
    this.line = start.line();
  }

  /** Opens {@code file} at its first data record. */
  public static CsvSource open(Path file, TableDef table, CsvOptions options) {
    return open(file, table, options, null);
  }

  /**
   * Opens {@code file} at {@code from} (a resume point this source handed out for the same file and
   * options), or at its first data record if {@code from} is null.
   *
   * @throws InvalidInputException if the file is not UTF-8 (by its BOM), its header does not match
   *     the table, or {@code from} lies outside the file's data
   */
  public static CsvSource open(Path file, TableDef table, CsvOptions options, ResumePoint from) {
    int[] fieldColumns;
    ResumePoint dataStart;
    try (FileWindow probe = new FileWindow(file, 0, Math.min(options.chunkBytes(), 1 << 16))) {
      probe.fill();
      int bom = Utf8.bomLength(file, probe.buf(), probe.length());
      probe.drop(bom);
      if (options.header()) {
        CsvRecordScanner scanner =
            new CsvRecordScanner(options.delimiter(), options.quote(), options.maxRecordBytes());
        CsvRecordIndex header = scanHeader(file, probe, scanner, options);
        List<String> names = headerNames(file, probe.buf(), header, options);
        fieldColumns = mapHeader(file, table, names);
        dataStart = new ResumePoint(bom + header.end(0), 1 + header.lineAfter(0));
      } else {
        fieldColumns = new int[table.columns().size()];
        for (int i = 0; i < fieldColumns.length; i++) {
          fieldColumns[i] = i;
        }
        dataStart = new ResumePoint(bom, 1);
      }
      if (from != null) {
        long size = probe.fileSize();
        if (from.offset() < dataStart.offset() || from.offset() > size) {
          throw new InvalidInputException(
              file
                  + ": resume point at byte offset "
                  + from.offset()
                  + " (expected: "
                  + dataStart.offset()
                  + ".."
                  + size
                  + ", the file's data)");
        }
        dataStart = from;
      }
    }
    return new CsvSource(
        file, new CsvLayout(file.toString(), table, fieldColumns, options), dataStart);
  }

  private static CsvRecordIndex scanHeader(
      Path file, FileWindow w, CsvRecordScanner scanner, CsvOptions options) {
    while (true) {
      CsvRecordIndex index = new CsvRecordIndex();
      scanner.scan(w.buf(), 0, w.length(), w.eof(), index);
      if (index.count() > 0) {
        if (!index.problems().isEmpty() && index.problems().get(0).record() == 0) {
          throw new InvalidInputException(
              file + " line 1: the header is not valid CSV: " + index.problems().get(0).kind());
        }
        return index;
      }
      if (w.length() == 0) {
        throw new InvalidInputException(file + ": empty file (expected: a header line)");
      }
      if (scanner.stop() == Stop.TOO_LONG || w.capacity() >= options.maxRecordBytes()) {
        throw new InvalidInputException(
            file + " line 1: the header is longer than " + options.maxRecordBytes() + " bytes");
      }
      w.grow(Math.min(w.capacity() * 2, options.maxRecordBytes()));
    }
  }

  private static List<String> headerNames(
      Path file, byte[] b, CsvRecordIndex header, CsvOptions options) {
    int end = header.end(0);
    while (end > 0 && (b[end - 1] == '\n' || b[end - 1] == '\r')) {
      end--;
    }
    if (end == 0) {
      throw new InvalidInputException(file + " line 1: the header line is empty");
    }
    CsvRecord record =
        CsvReader.builder()
            .fieldSeparator(options.delimiter())
            .quoteCharacter(options.quote())
            .ofSingleCsvRecord(new String(b, 0, end, StandardCharsets.UTF_8));
    List<String> names = new ArrayList<>(record.getFields());
    if (options.trailingDelimiter() && names.size() > 1 && names.get(names.size() - 1).isEmpty()) {
      names.remove(names.size() - 1);
    }
    return names;
  }

  /** Field index to column index, by name, ignoring case and surrounding blanks. */
  static int[] mapHeader(Path file, TableDef table, List<String> names) {
    int[] fieldColumns = new int[names.size()];
    int[] fieldOfColumn = new int[table.columns().size()];
    java.util.Arrays.fill(fieldOfColumn, -1);
    List<String> unknown = new ArrayList<>();
    for (int f = 0; f < names.size(); f++) {
      String name = names.get(f).strip();
      if (name.isEmpty()) {
        throw new InvalidInputException(
            file + " line 1: header field " + (f + 1) + " is empty (expected: a column name)");
      }
      int c = table.columnIndex(name);
      if (c < 0) {
        unknown.add("\"" + name + "\"");
        continue;
      }
      if (fieldOfColumn[c] >= 0) {
        throw new InvalidInputException(
            file
                + " line 1: header names column "
                + table.columns().get(c).name()
                + " twice (fields "
                + (fieldOfColumn[c] + 1)
                + " and "
                + (f + 1)
                + ")");
      }
      fieldOfColumn[c] = f;
      fieldColumns[f] = c;
    }
    List<String> missing = new ArrayList<>();
    for (int c = 0; c < fieldOfColumn.length; c++) {
      if (fieldOfColumn[c] < 0) {
        missing.add(table.columns().get(c).name());
      }
    }
    if (!unknown.isEmpty() || !missing.isEmpty()) {
      StringBuilder sb =
          new StringBuilder(file + " line 1: header does not match table " + table.name() + ":");
      if (!unknown.isEmpty()) {
        sb.append(" unknown column(s) ").append(String.join(", ", unknown)).append(';');
      }
      if (!missing.isEmpty()) {
        sb.append(" missing column(s) ").append(String.join(", ", missing)).append(';');
      }
      sb.append(" expected: ")
          .append(String.join(", ", table.columns().stream().map(ColumnDef::name).toList()));
      throw new InvalidInputException(sb.toString());
    }
    return fieldColumns;
  }

  @Override
  public TableDef table() {
    return layout.table();
  }

  @Override
  public String inputName() {
    return file.toString();
  }

  @Override
  public Chunk nextChunk() {
    if (closed) {
      throw new IllegalStateException(file + " is closed");
    }
    while (true) {
      window.fill();
      if (window.length() == 0) {
        return null;
      }
      CsvRecordIndex index = new CsvRecordIndex();
      int end = scanner.scan(window.buf(), 0, window.length(), window.eof(), index);
      if (index.count() > 0) {
        long offset = window.offset();
        CsvChunk chunk =
            new CsvChunk(chunks++, window.take(end), offset, line, index, layout, window, spares);
        line += index.lineCount();
        return chunk;
      }
      if (scanner.stop() == Stop.NEED_MORE && window.capacity() < maxWindow) {
        window.grow((int) Math.min(maxWindow, 2L * window.capacity()));
        continue;
      }
      return skipTooLong();
    }
  }

  /** A record with no line break within maxRecordBytes: reject it, go on after its line. */
  private Chunk skipTooLong() {
    long offset = window.offset();
    String raw =
        Utf8.displayPrefix(
            window.buf(), 0, window.length(), CsvChunk.tooLongShown(layout.options()));
    boolean lineBreak = window.dropThroughLineBreak(true);
    long start = line;
    line += lineBreak ? 1 : 0;
    RejectedRow reject =
        new RejectedRow(
            start, null, raw, CsvChunk.tooLong(layout.options()), window.offset(), line);
    return new RejectChunk(chunks++, new ResumePoint(offset, start), reject);
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      window.close();
    }
  }
}
