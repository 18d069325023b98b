package dev.idxkit.loader.input;

import de.siegmar.fastcsv.reader.CsvParseException;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.FieldMismatchStrategy;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.spi.GrowableBytes;
import dev.idxkit.core.spi.RecordLayout;
import dev.idxkit.loader.input.CsvRecordIndex.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Whole CSV records cut from a file, with the {@link CsvRecordIndex} the scanner built while
 * cutting: everything needed to parse them on any thread and still number them exactly.
 *
 * <p>Parsing: runs of well-formed records ("segments") are decoded from UTF-8 in one go (the
 * scanner has validated the bytes, so decoding cannot replace anything) and handed to fastcsv's
 * strict RFC 4180 parser, whose callbacks convert each field into its column's value ({@link
 * CsvRowHandler}). Records the scanner marked malformed become rejects between the segments. Record
 * {@code k} of the index is fastcsv's {@code k}-th record of its segment (empty lines included,
 * they are just not delivered), which is how each row gets its line number and resume offset; with
 * {@code -ea} the line numbers fastcsv counts are checked against the scanner's.
 *
 * <p>The bulk loader takes the other way, {@link #parseEncoded}: record by record straight from the
 * bytes into heap records ({@link CsvDirectParser}), with the same rows, rejects and numbering.
 */
final class CsvChunk extends TextChunk {
  private final CsvRecordIndex records;
  private final CsvLayout layout;
  private final FileWindow recycleTo; // null: the bytes are not reused
  private final EncodedRows.Spares spares; // null: parseEncoded allocates its arrays
  private boolean released;

  /**
   * @param data the chunk's bytes: records {@code 0..records.count()-1} of {@code records}, from
   *     index 0
   * @param startOffset file offset of {@code data[0]}
   * @param startLine line number of the first record
   * @param recycleTo the window {@code data} came from, which {@link #release()} gives it back to;
   *     null if it is not to be reused
   * @param spares where {@link #parseEncoded} takes the arrays of released rows; null for none
   */
  CsvChunk(
      long index,
      byte[] data,
      long startOffset,
      long startLine,
      CsvRecordIndex records,
      CsvLayout layout,
      FileWindow recycleTo,
      EncodedRows.Spares spares) {
    super(layout.file(), index, data, startOffset, startLine);
    this.records = records;
    this.layout = layout;
    this.recycleTo = recycleTo;
    this.spares = spares;
  }

  /**
   * Both parses copy what they keep (strings, encoded records), so once one has returned the
   * chunk's bytes can be filled again.
   */
  @Override
  public void release() {
    if (!released && recycleTo != null) {
      released = true;
      recycleTo.recycle(data);
    }
  }

  /** Where the input continues after this chunk. */
  ResumePoint end() {
    int n = records.count();
    return new ResumePoint(startOffset + records.end(n - 1), startLine + records.lineCount());
  }

  @Override
  public Batch parse() {
    CsvOptions options = layout.options();
    CsvReader.CsvReaderBuilder builder =
        CsvReader.builder()
            .fieldSeparator(options.delimiter())
            .quoteCharacter(options.quote())
            .skipEmptyLines(false)
            .extraFieldStrategy(FieldMismatchStrategy.IGNORE)
            .missingFieldStrategy(FieldMismatchStrategy.IGNORE);
    CsvRowHandler handler = new CsvRowHandler(layout);
    List<InputRecord> out = new ArrayList<>(records.count());
    List<Problem> problems = records.problems();
    int nextProblem = 0;
    int i = 0;
    while (i < records.count()) {
      if (nextProblem < problems.size() && problems.get(nextProblem).record() == i) {
        out.add(malformed(problems.get(nextProblem++)));
        i++;
        continue;
      }
      int j = nextProblem < problems.size() ? problems.get(nextProblem).record() : records.count();
      parseSegment(builder, handler, i, j, out);
      i = j;
    }
    return batch(out, end());
  }

  /**
   * The bulk loader's path: each well-formed record straight from the chunk's bytes into a heap
   * record ({@link CsvDirectParser}), the malformed ones rejected as {@link #parse()} rejects them.
   * Null, for {@link #parse()} to do it all, if a record's structure is one only fastcsv judges.
   */
  @Override
  public EncodedRows parseEncoded(RecordLayout recordLayout) {
    CsvDirectParser p = CsvDirectParser.create(layout, recordLayout);
    if (p == null) {
      return null;
    }
    CsvFieldSplitter fields = p.splitter();
    int n = records.count();
    EncodedRows.Builder out =
        new EncodedRows.Builder(n, n == 0 ? 64 : records.end(n - 1) + n * 16, spares);
    List<Problem> problems = records.problems();
    int nextProblem = 0;
    for (int k = 0; k < n; k++) {
      if (nextProblem < problems.size() && problems.get(nextProblem).record() == k) {
        out.addReject(malformed(problems.get(nextProblem++)));
        continue;
      }
      int from = records.start(k);
      int to = contentEnd(k);
      if (from == to) {
        continue; // an empty line is no row (fastcsv's rule on the other path)
      }
      if (!fields.split(data, from, to)) {
        return null;
      }
      String countProblem = fieldCountProblem(fields.fields(), fields.lastFieldEmpty());
      if (countProblem != null) {
        out.addReject(reject(k, null, recordText(k), countProblem));
        continue;
      }
      long line = startLine + records.line(k);
      long resumeOffset = startOffset + records.end(k);
      long resumeLine = startLine + records.lineAfter(k);
      try {
        if (!p.encode(data)) {
          out.addReject(reject(k, p.errorColumn(), p.errorValue(), p.errorReason()));
          continue;
        }
      } catch (IdxkitException e) {
        out.addReject(new RejectedRow(line, null, null, e.getMessage(), resumeOffset, resumeLine));
        continue;
      }
      GrowableBytes r = p.record();
      out.addRow(r.array(), 0, r.length(), line, resumeOffset, resumeLine);
    }
    return out.build();
  }

  /** Parses records {@code [from, to)} (all well-formed) into {@code out}. */
  private void parseSegment(
      CsvReader.CsvReaderBuilder builder,
      CsvRowHandler handler,
      int from,
      int to,
      List<InputRecord> out) {
    int begin = records.start(from);
    String text = new String(data, begin, records.end(to - 1) - begin, StandardCharsets.UTF_8);
    int k = from;
    try (CsvReader<CsvRowHandler> reader = builder.build(handler, text)) {
      for (CsvRowHandler h : reader) {
        if (k >= to) {
          throw disagreement(k, "fastcsv found more records than the scanner");
        }
        assert h.startingLine() == records.line(k) - records.line(from) + 1
            : disagreement(k, "fastcsv counts line " + h.startingLine()).getMessage();
        if (!h.isEmptyLine()) {
          out.add(toRecord(h, k));
        }
        k++;
      }
    } catch (CsvParseException e) {
      throw disagreement(k, e.getMessage());
    } catch (IOException e) {
      throw new IllegalStateException("reading a String cannot fail", e);
    }
    if (k != to) {
      throw disagreement(k, "fastcsv found fewer records than the scanner");
    }
  }

  private InputRecord toRecord(CsvRowHandler h, int k) {
    String countProblem = fieldCountProblem(h.fields(), h.lastFieldEmpty());
    if (countProblem != null) {
      return reject(k, null, recordText(k), countProblem);
    }
    if (h.errorReason() != null) {
      return reject(k, h.errorColumn(), h.errorValue(), h.errorReason());
    }
    return new InputRow(
        h.values(),
        startLine + records.line(k),
        startOffset + records.end(k),
        startLine + records.lineAfter(k));
  }

  /** Null if a record of {@code found} fields has the right count, else the reject's reason. */
  private String fieldCountProblem(int found, boolean lastFieldEmpty) {
    int expected = layout.fieldCount();
    boolean countOk =
        found == expected
            || (layout.options().trailingDelimiter() && found == expected + 1 && lastFieldEmpty);
    if (countOk) {
      return null;
    }
    if (layout.options().trailingDelimiter()) {
      return "expected " + expected + " fields (and a trailing delimiter), found " + found;
    }
    return "expected " + expected + " fields, found " + found;
  }

  private RejectedRow malformed(Problem p) {
    int k = p.record();
    ColumnDef col = layout.columnOfField(p.field());
    long at = startOffset + p.at();
    String reason;
    String raw;
    switch (p.kind()) {
      case INVALID_UTF8:
        reason = String.format("not valid UTF-8: byte 0x%02x at file offset %d", data[p.at()], at);
        raw = fieldText(p.fieldStart(), records.end(k));
        break;
      case CHAR_AFTER_QUOTE:
        // A quote opened here may close lines later, past this record (cut at its first line).
        reason =
            (p.at() < records.end(k)
                    ? "'"
                        + (char) data[p.at()]
                        + "' at file offset "
                        + at
                        + " follows the closing quote"
                    : "the quote opened in this field closes only on a later line, at file offset "
                        + (at - 1)
                        + ", and text follows it")
                + " (expected '"
                + layout.options().delimiter()
                + "' or a line break after a closing quote; a quote inside a quoted field is"
                + " written twice)";
        raw = recordText(k);
        break;
      case UNCLOSED_QUOTE:
        reason =
            "the quote opened at file offset "
                + (startOffset + p.fieldStart())
                + " is never closed (the file ends first)";
        raw = recordText(k);
        break;
      case TOO_LONG:
        reason = tooLong(layout.options());
        raw =
            Utf8.displayPrefix(
                data, records.start(k), contentEnd(k), tooLongShown(layout.options()));
        break;
      default:
        throw new AssertionError(p.kind());
    }
    // A record too long is a problem of the record, not of one field.
    String column = col == null || p.kind() == CsvRecordIndex.Kind.TOO_LONG ? null : col.name();
    return reject(k, column, raw, reason);
  }

  /**
   * How many bytes of a record too long to keep are shown: the same however it was found (by the
   * scanner in a chunk, or by the chunker skipping it), so that rejects do not depend on chunking.
   */
  static int tooLongShown(CsvOptions options) {
    return TextChunk.tooLongShown(options.maxRecordBytes());
  }

  /** The reason for a record longer than maxRecordBytes, however it was found. */
  static String tooLong(CsvOptions options) {
    return TextChunk.tooLong("record", options.maxRecordBytes(), "maxRecordBytes");
  }

  private RejectedRow reject(int k, String column, String raw, String reason) {
    return new RejectedRow(
        startLine + records.line(k),
        column,
        raw,
        reason,
        startOffset + records.end(k),
        startLine + records.lineAfter(k));
  }

  /** Record {@code k} without its line break, bad bytes as \xNN. */
  private String recordText(int k) {
    int from = records.start(k);
    return Utf8.displayPrefix(data, from, contentEnd(k), RejectedRow.MAX_RAW_CHARS * 4);
  }

  /** Where record {@code k} ends before its line break. */
  private int contentEnd(int k) {
    int from = records.start(k);
    int to = records.end(k);
    while (to > from && (data[to - 1] == '\n' || data[to - 1] == '\r')) {
      to--;
    }
    return to;
  }

  /** The field starting at {@code start}: to its closing quote, or to a delimiter or line break. */
  private String fieldText(int start, int recordEnd) {
    byte quote = (byte) layout.options().quote();
    byte delim = (byte) layout.options().delimiter();
    int p = start;
    if (p < recordEnd && data[p] == quote) {
      p++;
      while (p < recordEnd && !(data[p] == quote && (p + 1 >= recordEnd || data[p + 1] != quote))) {
        p += data[p] == quote ? 2 : 1;
      }
      p = Math.min(p + 1, recordEnd);
    } else {
      while (p < recordEnd && data[p] != delim && data[p] != '\n' && data[p] != '\r') {
        p++;
      }
    }
    return Utf8.display(data, start, p);
  }

  private IdxkitException disagreement(int k, String what) {
    return new IdxkitException(
        layout.file()
            + " line "
            + (startLine + records.line(k))
            + ": internal error, the record scanner and fastcsv disagree: "
            + what);
  }
}
