package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.Swar.CRS;
import static dev.idxkit.loader.input.Swar.HIGHS;
import static dev.idxkit.loader.input.Swar.LFS;
import static dev.idxkit.loader.input.Swar.zeroBytes;

import dev.idxkit.loader.input.CsvRecordIndex.Kind;

/**
 * Finds where CSV records end in raw bytes, without decoding them: the sequential part of reading a
 * CSV file, kept small so that it runs at memory speed and the parsing (fastcsv and value
 * conversion) can run in parallel on the chunks it delimits.
 *
 * <h2>Algorithm</h2>
 *
 * A byte state machine with RFC 4180's rules, the same ones fastcsv's strict parser applies (the
 * chunk parser asserts that both agree on every record and line number):
 *
 * <ul>
 *   <li>A quote opens a quoted field only as the field's first byte; elsewhere it is data.
 *   <li>In a quoted field a doubled quote is a quote; a single quote closes the field and must be
 *       followed by a delimiter, a line break or the end of the file.
 *   <li>Outside quotes, LF, CR and CRLF end the record; inside quotes they are data, but count as
 *       physical lines so that every record knows the line it starts on.
 *   <li>Every byte from 0x80 up is checked to start a well-formed UTF-8 sequence ({@link Utf8}):
 *       bad bytes mark the record {@link CsvRecordIndex.Kind#INVALID_UTF8} (its extent is still
 *       right: no ASCII byte is part of a multi-byte sequence).
 * </ul>
 *
 * <p>The scan is exact rather than speculative: chunk boundaries come from a scan that started at
 * the beginning of the input (or at a resume point, which is a record boundary), so a boundary can
 * never fall inside a quoted field, whatever the quotes before it. Quote parity guessing, which
 * some parallel CSV readers use to start mid-file, is not needed because this scan is cheaper than
 * parsing (see the loader's throughput notes).
 *
 * <h2>Malformed records and resynchronisation</h2>
 *
 * A record with a stray quote ({@code 1,"abc,2} with no closing quote, or {@code "a"b}) would, by
 * the letter of RFC 4180, swallow the rest of the file or everything up to the next quote. Instead
 * the scanner rejects it and resumes at the next physical line after the record's start, as a
 * person reading the file would: one bad line costs one row. The same happens to a record longer
 * than {@code maxRecordBytes}; if such a record has no line break within the window, the scan stops
 * with {@link Stop#TOO_LONG} and the chunker skips to the next line break.
 *
 * <p>The scanner is stateless between calls: each call starts at a record boundary, and a record
 * cut off by the end of the window is left for the next call (after the window has been refilled or
 * grown), which rescans it from its start.
 *
 * <h2>The fast path</h2>
 *
 * This scan runs on the loading thread, one byte after another, so it bounds the loader's speed:
 * the state machine above cost about 0.6 s of CPU for 780 MB of lineitem, a fifth of the load. Most
 * records are plain: ASCII, fields quoted (if at all) with the quotes closed before the next
 * delimiter or the LF. {@link #fastRecord} takes such a record 8 bytes at a time (SWAR: one {@code
 * long} tested for the bytes LF, CR, quote and anything from 0x80 up at once), and only looks at
 * single bytes where one of those is. Delimiters are not searched for: a quote opens a quoted field
 * only if the byte before it is a delimiter or the record's start, which is checked when a quote is
 * found. Anything else - a line break inside quotes, a byte from 0x80 up that does not start a
 * valid UTF-8 sequence, a character after a closing quote, a record cut by the window, a record
 * longer than {@code maxRecordBytes} - gives up on that record, which the state machine then scans
 * from its start as before: the fast path only ever accepts records the state machine accepts
 * identically (its test compares the two on random files).
 */
final class CsvRecordScanner {
  /** Why {@link #scan} returned. */
  enum Stop {
    /** All bytes were consumed into records. */
    END,
    /** The last record is cut off by the window: read more and scan it again. */
    NEED_MORE,
    /** A record longer than maxRecordBytes with no line break in the window. */
    TOO_LONG
  }

  private static final byte LF = '\n';
  private static final byte CR = '\r';

  private final byte delimiter;
  private final byte quote;
  private final long quotes;
  private final boolean fast;
  private final int maxRecordBytes;
  private Stop stop;
  // The first byte of the current record that is not UTF-8 (-1: none yet), its field and where
  // that field starts; reset at each record.
  private int badAt;
  private int badField;
  private int badFieldStart;

  CsvRecordScanner(char delimiter, char quote, int maxRecordBytes) {
    this(delimiter, quote, maxRecordBytes, true);
  }

  /**
   * @param fastPath whether plain records take {@link #fastRecord} (tests compare with and without)
   */
  CsvRecordScanner(char delimiter, char quote, int maxRecordBytes, boolean fastPath) {
    this.delimiter = (byte) delimiter;
    this.quote = (byte) quote;
    this.quotes = Swar.broadcast(this.quote);
    // The fast path assumes a one-byte ASCII delimiter and quote that are not line breaks.
    this.fast =
        fastPath
            && delimiter < 0x80
            && quote < 0x80
            && delimiter != quote
            && !isBreak(delimiter)
            && !isBreak(quote);
    this.maxRecordBytes = maxRecordBytes;
  }

  private static boolean isBreak(char c) {
    return c == '\n' || c == '\r';
  }

  /** Why the last {@link #scan} returned. */
  Stop stop() {
    return stop;
  }

  /**
   * Appends to {@code out} the records in {@code b[from, limit)}; {@code eof} says that no bytes
   * follow {@code limit}. Offsets in {@code out} are indexes into {@code b}.
   *
   * @return the index just after the last record appended ({@code from} if none)
   */
  int scan(byte[] b, int from, int limit, boolean eof, CsvRecordIndex out) {
    int p = from;
    while (p < limit) {
      int next = fast ? fastRecord(b, p, limit, out) : -1;
      if (next < 0) {
        next = record(b, p, limit, eof, out);
      }
      if (next < 0) {
        return -next - 1;
      }
      p = next;
    }
    stop = Stop.END;
    return p;
  }

  /**
   * The plain record starting at {@code start}, 8 bytes at a time (see the class comment): appends
   * it to {@code out} and returns where the next record starts, or returns -1 with nothing appended
   * when the record is not plain, for {@link #record} to scan it.
   */
  int fastRecord(byte[] b, int start, int limit, CsvRecordIndex out) {
    int p = start;
    while (true) {
      // Outside quotes: to the next LF, CR, quote or non-ASCII byte.
      p = nextSpecial(b, p, limit);
      if (p >= limit) {
        return -1; // cut by the window (or the file ends without a line break)
      }
      byte c = b[p];
      if (c == LF) {
        return fastEnd(start, p + 1, out);
      }
      if (c == CR) {
        if (p + 1 >= limit) {
          return -1; // CRLF split by the window?
        }
        return fastEnd(start, b[p + 1] == LF ? p + 2 : p + 1, out);
      }
      if (c < 0) {
        int n = Utf8.sequenceLength(b, p, limit);
        if (n <= 0) {
          return -1; // not UTF-8, or cut by the window
        }
        p += n;
        continue;
      }
      // A quote: data inside an unquoted field, or the start of a quoted one.
      if (p > start && b[p - 1] != delimiter) {
        p++;
        continue;
      }
      p = fastQuoted(b, p + 1, limit);
      if (p < 0) {
        return -1;
      }
    }
  }

  /**
   * The rest of a quoted field from {@code p} (just past its opening quote): returns the index just
   * past the closing quote, which is followed by a delimiter or a line break, or -1 for anything
   * the fast path leaves to the state machine.
   */
  private int fastQuoted(byte[] b, int p, int limit) {
    final byte q = quote;
    while (true) {
      p = nextSpecial(b, p, limit);
      if (p >= limit) {
        return -1;
      }
      byte c = b[p];
      if (c == q) {
        if (p + 1 >= limit) {
          return -1;
        }
        byte n = b[p + 1];
        if (n == q) {
          p += 2; // an escaped quote
          continue;
        }
        return n == delimiter || n == LF || n == CR ? p + 1 : -1;
      }
      if (c == LF || c == CR) {
        return -1; // a line break inside quotes: the state machine counts the lines
      }
      int n = Utf8.sequenceLength(b, p, limit);
      if (n <= 0) {
        return -1;
      }
      p += n;
    }
  }

  /**
   * The index of the first LF, CR, quote or non-ASCII byte at or after {@code p}, or {@code limit}
   * if there is none before it: eight bytes at a time, then byte by byte.
   */
  private int nextSpecial(byte[] b, int p, int limit) {
    final long qs = quotes;
    while (p + 8 <= limit) {
      long x = Swar.word(b, p);
      long m = zeroBytes(x ^ LFS) | zeroBytes(x ^ CRS) | zeroBytes(x ^ qs) | (x & HIGHS);
      if (m != 0) {
        return p + (Long.numberOfTrailingZeros(m) >>> 3);
      }
      p += 8;
    }
    final byte q = quote;
    while (p < limit && b[p] >= 0 && b[p] != LF && b[p] != CR && b[p] != q) {
      p++;
    }
    return p;
  }

  /** Appends the plain record {@code [start, end)}, one line long, unless it is too long. */
  private int fastEnd(int start, int end, CsvRecordIndex out) {
    if (end - start > maxRecordBytes) {
      return -1;
    }
    out.add(end, 1);
    return end;
  }

  /**
   * Scans the record starting at {@code start} and appends it to {@code out} (or rejects it and
   * resynchronises). Returns where the next record starts, or {@code -(start + 1)} with {@link
   * #stop} set if the window cuts the record.
   */
  private int record(byte[] b, int start, int limit, boolean eof, CsvRecordIndex out) {
    final byte delim = delimiter;
    final byte q = quote;
    badAt = -1;
    int p = start;
    int breaks = 0;
    int field = 0;
    field:
    while (true) {
      final int fieldStart = p;
      if (p < limit && b[p] == q) {
        p++;
        // Inside a quoted field.
        while (true) {
          if (p >= limit) {
            return eof
                ? resync(
                    b, start, limit, true, out, Kind.UNCLOSED_QUOTE, field, fieldStart, fieldStart)
                : needMore(b, start, limit, out);
          }
          byte c = b[p];
          if (c == q) {
            if (p + 1 >= limit) {
              // The closing quote is the window's last byte: the file's, or read on.
              return eof
                  ? complete(b, start, p + 1, limit, eof, out, breaks)
                  : needMore(b, start, limit, out);
            }
            byte n = b[p + 1];
            if (n == q) {
              p += 2; // an escaped quote
              continue;
            }
            p++; // past the closing quote
            if (n == delim) {
              p++;
              field++;
              continue field;
            }
            if (n == LF || n == CR) {
              break field; // the record ends; the line break is handled below
            }
            return resync(b, start, limit, eof, out, Kind.CHAR_AFTER_QUOTE, field, fieldStart, p);
          } else if (c == LF) {
            breaks++;
            p++;
          } else if (c == CR) {
            if (p + 1 >= limit && !eof) {
              return needMore(b, start, limit, out); // CRLF split by the window?
            }
            breaks++;
            p += p + 1 < limit && b[p + 1] == LF ? 2 : 1;
          } else if (c >= 0) {
            p++;
          } else {
            p = nonAscii(b, p, limit, eof, field, fieldStart);
            if (p < 0) {
              return needMore(b, start, limit, out);
            }
          }
        }
      }
      // An unquoted field: runs to a delimiter or a line break.
      while (true) {
        if (p >= limit) {
          return eof
              ? complete(b, start, p, limit, eof, out, breaks)
              : needMore(b, start, limit, out);
        }
        byte c = b[p];
        if (c == delim) {
          p++;
          field++;
          continue field;
        }
        if (c == LF || c == CR) {
          break field;
        }
        if (c >= 0) {
          p++;
        } else {
          p = nonAscii(b, p, limit, eof, field, fieldStart);
          if (p < 0) {
            return needMore(b, start, limit, out);
          }
        }
      }
    }
    // b[p] is the LF or CR that ends the record.
    if (b[p] == CR) {
      if (p + 1 >= limit && !eof) {
        return needMore(b, start, limit, out); // CRLF split by the window?
      }
      p += p + 1 < limit && b[p + 1] == LF ? 2 : 1;
    } else {
      p++;
    }
    return complete(b, start, p, limit, eof, out, breaks + 1);
  }

  /**
   * Steps over the byte sequence from 0x80 up at {@code p}: returns the index after it, or -1 if
   * the window cuts it and more bytes follow. A byte that starts no well-formed sequence is stepped
   * over alone; the record's first such byte is noted for its reject.
   */
  private int nonAscii(byte[] b, int p, int limit, boolean eof, int field, int fieldStart) {
    int n = Utf8.sequenceLength(b, p, limit);
    if (n > 0) {
      return p + n;
    }
    if (n < 0 && !eof) {
      return -1;
    }
    if (badAt < 0) {
      badAt = p;
      badField = field;
      badFieldStart = fieldStart;
    }
    return p + 1;
  }

  /**
   * Adds the record {@code b[start, end)}, with its UTF-8 problem if any. A record longer than
   * maxRecordBytes is rejected and cut at its first line instead, wherever its end fell, so that
   * the limit does not depend on how the input was cut into windows. Returns where the next record
   * starts, or {@code -(start + 1)} with {@link #stop} set.
   */
  private int complete(
      byte[] b, int start, int end, int limit, boolean eof, CsvRecordIndex out, int breaks) {
    if (end - start > maxRecordBytes) {
      return resync(b, start, limit, eof, out, Kind.TOO_LONG, 0, start, start);
    }
    if (badAt < 0) {
      out.add(end, breaks);
    } else {
      out.add(end, breaks, Kind.INVALID_UTF8, badField, badFieldStart, badAt);
    }
    return end;
  }

  /**
   * The window ends inside the record starting at {@code start}. Normally: stop, to be called again
   * with more bytes. But a record that already fills {@code maxRecordBytes} is rejected now.
   * Returns where to go on scanning, or {@code -(start + 1)} with {@link #stop} set.
   */
  private int needMore(byte[] b, int start, int limit, CsvRecordIndex out) {
    if (limit - start < maxRecordBytes) {
      stop = Stop.NEED_MORE;
      return -(start + 1);
    }
    return resync(b, start, limit, false, out, Kind.TOO_LONG, 0, start, start);
  }

  /**
   * Rejects the record starting at {@code start} as malformed and cuts it at its first physical
   * line break. Returns where the next record starts, or {@code -(start + 1)} with {@link #stop}
   * set if that line break is beyond the window.
   */
  private int resync(
      byte[] b,
      int start,
      int limit,
      boolean eof,
      CsvRecordIndex out,
      Kind kind,
      int field,
      int fieldStart,
      int at) {
    int p = start;
    while (p < limit && b[p] != LF && b[p] != CR) {
      p++;
    }
    if (p >= limit) {
      if (eof) {
        out.add(limit, 0, kind, field, fieldStart, at);
        return limit;
      }
      stop = limit - start >= maxRecordBytes ? Stop.TOO_LONG : Stop.NEED_MORE;
      return -(start + 1);
    }
    if (b[p] == CR) {
      if (p + 1 >= limit && !eof) {
        stop = Stop.NEED_MORE;
        return -(start + 1);
      }
      p += p + 1 < limit && b[p + 1] == LF ? 2 : 1;
    } else {
      p++;
    }
    // at may lie past the cut: a quote opened here and closed lines later.
    out.add(p, 1, kind, field, fieldStart, at);
    return p;
  }
}
