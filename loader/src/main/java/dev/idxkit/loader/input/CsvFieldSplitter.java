package dev.idxkit.loader.input;

import static dev.idxkit.loader.input.Swar.CRS;
import static dev.idxkit.loader.input.Swar.LFS;
import static dev.idxkit.loader.input.Swar.exactZeros;
import static dev.idxkit.loader.input.Swar.word;
import static dev.idxkit.loader.input.Swar.zeroBytes;

import java.util.Arrays;

/**
 * Splits one CSV record that {@link CsvRecordScanner} has already checked (UTF-8 valid, quotes
 * closed and followed by a delimiter or the end) into its fields: where each starts and ends, and
 * whether it was quoted, for {@link CsvDirectParser#encode}. Gives up (false) on a record whose
 * structure is not plain - a quote inside an unquoted field, a line break outside quotes - which
 * the caller hands to fastcsv.
 */
final class CsvFieldSplitter {
  static final byte PLAIN = 0;
  static final byte QUOTED = 1;
  static final byte ESCAPED = 2; // quoted, with doubled quotes inside

  private final byte delimiter;
  private final byte quote;
  private final long delimiters;
  private final long quotes;

  private int fields;
  private int[] fieldStart = new int[16];
  private int[] fieldEnd = new int[16];
  private byte[] fieldKind = new byte[16]; // PLAIN, QUOTED or ESCAPED

  /** For ASCII {@code delimiter} and {@code quote}, neither a line break. */
  CsvFieldSplitter(byte delimiter, byte quote) {
    this.delimiter = delimiter;
    this.quote = quote;
    this.delimiters = Swar.broadcast(delimiter);
    this.quotes = Swar.broadcast(quote);
  }

  /**
   * Splits {@code d[from, to)}, a record without its line break, into fields; false if the record
   * holds something this parser leaves to fastcsv.
   *
   * <p>Unquoted fields are found 8 bytes at a time: a {@code long} gives exact masks of its
   * delimiters and of its quotes and line breaks; every delimiter before the first of the others
   * ends a field, without a branch per field. A quote right after a delimiter starts a quoted
   * field, read to its closing quote; any other quote or line break outside quotes sends the record
   * to fastcsv. (This split was a third of the parse threads' time when it looked for one field at
   * a time.)
   */
  boolean split(byte[] d, int from, int to) {
    fields = 0;
    int p = from;
    while (true) {
      if (p < to && d[p] == quote) {
        p = quotedField(d, p, to);
        if (p < 0) {
          return false;
        }
        if (p == to) {
          return true;
        }
        p++;
        continue;
      }
      // Unquoted fields from p on, to the end or to a quoted field.
      int s = p;
      while (true) {
        int avail = to - p;
        if (avail <= 0) {
          addField(s, to, PLAIN);
          return true;
        }
        if (p + 8 > d.length) {
          return splitTail(d, p, s, to);
        }
        long x = word(d, p);
        long special = exactZeros(x ^ quotes) | exactZeros(x ^ LFS) | exactZeros(x ^ CRS);
        long delims = exactZeros(x ^ delimiters);
        if (avail < 8) {
          long keep = (1L << (avail << 3)) - 1; // bytes past the record are not its own
          special &= keep;
          delims &= keep;
        }
        long stop = special & -special; // the first quote or line break, 0 if none
        long ends = stop == 0 ? delims : delims & (stop - 1);
        while (ends != 0) {
          int i = p + (Long.numberOfTrailingZeros(ends) >>> 3);
          addField(s, i, PLAIN);
          s = i + 1;
          ends &= ends - 1;
        }
        if (stop != 0) {
          int i = p + (Long.numberOfTrailingZeros(stop) >>> 3);
          if (d[i] != quote || i != s) {
            return false; // a quote inside an unquoted field, or a line break
          }
          p = i; // a quoted field starts here
          break;
        }
        if (avail <= 8) {
          addField(s, to, PLAIN);
          return true;
        }
        p += 8;
      }
    }
  }

  /**
   * {@link #split} of the last bytes of the chunk's array (fewer than 8 left to read), one at a
   * time: unquoted fields from {@code s}, the current one started, {@code p} the next byte.
   */
  private boolean splitTail(byte[] d, int p, int s, int to) {
    for (; p < to; p++) {
      byte b = d[p];
      if (b == delimiter) {
        addField(s, p, PLAIN);
        s = p + 1;
      } else if (b == quote || b == '\n' || b == '\r') {
        if (b != quote || p != s) {
          return false;
        }
        return splitFrom(d, p, to); // a quoted field so close to the array's end
      }
    }
    addField(s, to, PLAIN);
    return true;
  }

  /**
   * Adds the quoted field starting at {@code p} (its opening quote); returns where it ends: {@code
   * to}, or a delimiter (the caller steps over it). -1 when it is not closed before {@code to} or
   * something other than a delimiter follows its closing quote.
   */
  private int quotedField(byte[] d, int p, int to) {
    int q = p + 1;
    byte kind = QUOTED;
    while (true) {
      q = nextQuote(d, q, to);
      if (q >= to) {
        return -1; // the scanner closes every quote it accepts: not expected here
      }
      if (q + 1 < to && d[q + 1] == quote) {
        kind = ESCAPED;
        q += 2;
        continue;
      }
      break;
    }
    addField(p + 1, q, kind);
    int after = q + 1;
    return after == to || d[after] == delimiter ? after : -1;
  }

  /**
   * Continues a split at {@code p}, a field start near the end of the array, one field at a time.
   */
  private boolean splitFrom(byte[] d, int p, int to) {
    while (true) {
      if (p < to && d[p] == quote) {
        p = quotedField(d, p, to);
        if (p < 0) {
          return false;
        }
      } else {
        int s = p;
        p = nextSpecial(d, p, to);
        if (p < to && d[p] != delimiter) {
          return false;
        }
        addField(s, p, PLAIN);
      }
      if (p == to) {
        return true;
      }
      p++;
    }
  }

  /** The first delimiter, quote, LF or CR in {@code d[p, to)}, or {@code to}. */
  private int nextSpecial(byte[] d, int p, int to) {
    while (p + 8 <= d.length && p < to) {
      long x = word(d, p);
      long m =
          zeroBytes(x ^ delimiters)
              | zeroBytes(x ^ quotes)
              | zeroBytes(x ^ LFS)
              | zeroBytes(x ^ CRS);
      if (m != 0) {
        return Math.min(to, p + (Long.numberOfTrailingZeros(m) >>> 3));
      }
      p += 8;
    }
    while (p < to) {
      byte b = d[p];
      if (b == delimiter || b == quote || b == '\n' || b == '\r') {
        return p;
      }
      p++;
    }
    return to;
  }

  /** The first quote in {@code d[p, to)}, or {@code to}. */
  private int nextQuote(byte[] d, int p, int to) {
    while (p + 8 <= d.length && p < to) {
      long m = zeroBytes(word(d, p) ^ quotes);
      if (m != 0) {
        return Math.min(to, p + (Long.numberOfTrailingZeros(m) >>> 3));
      }
      p += 8;
    }
    while (p < to && d[p] != quote) {
      p++;
    }
    return Math.min(p, to);
  }

  private void addField(int start, int end, byte kind) {
    if (fields == fieldStart.length) {
      fieldStart = Arrays.copyOf(fieldStart, fields * 2);
      fieldEnd = Arrays.copyOf(fieldEnd, fields * 2);
      fieldKind = Arrays.copyOf(fieldKind, fields * 2);
    }
    fieldStart[fields] = start;
    fieldEnd[fields] = end;
    fieldKind[fields] = kind;
    fields++;
  }

  /** Where field {@code i} of the last {@link #split} starts (after an opening quote). */
  int fieldStart(int i) {
    return fieldStart[i];
  }

  /** Where field {@code i} of the last {@link #split} ends (before a closing quote). */
  int fieldEnd(int i) {
    return fieldEnd[i];
  }

  /** Whether field {@code i} of the last {@link #split} was quoted: 0 no, 1 yes, 2 with "". */
  int fieldKind(int i) {
    return fieldKind[i];
  }

  /** Fields found by the last {@link #split}. */
  int fields() {
    return fields;
  }

  /** True if the last field of the last split is empty and unquoted. */
  boolean lastFieldEmpty() {
    return fields > 0
        && fieldKind[fields - 1] == PLAIN
        && fieldStart[fields - 1] == fieldEnd[fields - 1];
  }
}
