package dev.idxkit.loader.input;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The records of one CSV chunk as {@link CsvRecordScanner} found them: where each ends, which
 * physical line each starts on, and which are malformed. Offsets are indexes into the chunk's
 * bytes, lines are relative to the chunk's first line; record {@code i} spans {@code [end(i - 1),
 * end(i))}, its line break included.
 */
final class CsvRecordIndex {
  /** Why a record cannot be parsed; the scanner has already cut it to its first physical line. */
  enum Kind {
    /** A byte sequence that is not UTF-8; the record itself is well delimited. */
    INVALID_UTF8,
    /** A closing quote followed by something other than a delimiter, quote or line break. */
    CHAR_AFTER_QUOTE,
    /** A quoted field still open at the end of the file. */
    UNCLOSED_QUOTE,
    /** A record longer than {@link CsvOptions#maxRecordBytes()}. */
    TOO_LONG
  }

  /**
   * @param record index of the record
   * @param field 0-based field the problem is in
   * @param fieldStart offset where that field starts
   * @param at offset of the offending byte; may lie past the record's end when a quote opened in it
   *     closed lines later
   */
  record Problem(int record, Kind kind, int field, int fieldStart, int at) {}

  private int count;
  private int[] ends = new int[1024];
  private int[] lines = new int[1024];
  private int nextLine;
  private final List<Problem> problems = new ArrayList<>();

  /** Appends a record ending at {@code end} that contains {@code lineBreaks} line breaks. */
  void add(int end, int lineBreaks) {
    if (count == ends.length) {
      ends = Arrays.copyOf(ends, count * 2);
      lines = Arrays.copyOf(lines, count * 2);
    }
    ends[count] = end;
    lines[count] = nextLine;
    nextLine += lineBreaks;
    count++;
  }

  /** Appends a malformed record. */
  void add(int end, int lineBreaks, Kind kind, int field, int fieldStart, int at) {
    problems.add(new Problem(count, kind, field, fieldStart, at));
    add(end, lineBreaks);
  }

  int count() {
    return count;
  }

  int start(int record) {
    return record == 0 ? 0 : ends[record - 1];
  }

  int end(int record) {
    return ends[record];
  }

  /** The line record {@code i} starts on, relative to the chunk's first line. */
  int line(int record) {
    return lines[record];
  }

  /** The line after record {@code i}: where the next one starts. */
  int lineAfter(int record) {
    return record + 1 < count ? lines[record + 1] : nextLine;
  }

  /** Lines the chunk spans: its records' line breaks. */
  int lineCount() {
    return nextLine;
  }

  /** Malformed records, by ascending record index. */
  List<Problem> problems() {
    return problems;
  }
}
