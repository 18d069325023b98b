package dev.idxkit.loader.internal;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.loader.input.RejectedRow;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The reject file: one line per rejected row, UTF-8, readable by people and by {@code grep}/{@code
 * cut}.
 *
 * <h2>Format</h2>
 *
 * <pre>
 * # idxkit load: rejected rows of data.csv for table t (line: reason | raw input)
 * data.csv:5: column price: "abc" is not a number: unexpected 'a' at position 1 | abc
 * data.csv:7: expected 4 fields, found 3 | 6,ok,1.00
 * data.csv:9: duplicate key (id=8) in unique index t_pk
 * </pre>
 *
 * Each line is {@code <input>:<line>: [column <name>: ]<reason>[ | <raw>]}: the input's name, the
 * 1-based line where the record starts (the row number for the generator), the column when the
 * problem is one field, what is wrong, and the raw text (the field, or the record when the problem
 * is the whole record) as the input had it, cut at 1000 characters, bytes that are not UTF-8 as
 * {@code \xNN}; a row rejected after it was stored (a duplicate key found by the deferred index
 * build) is written as a record of the input ({@code LoadInput.recordText}), which loads back as
 * the same row. Line breaks and tabs inside the raw text and reason are written as {@code \n},
 * {@code \r}, {@code \t} so that every reject is one line (a backslash is left as it is, so the
 * text stays as close to the input as it can). Lines starting with {@code #} are comments: the
 * header, and a note where a resumed load continued.
 *
 * <h2>Resume</h2>
 *
 * Each checkpoint syncs the file and records its length ({@link #checkpoint()}). A resumed load
 * cuts the file back to that length before appending, so the rejects read after the checkpoint -
 * read again by the resume - appear once. Memory: an 8 KiB buffer.
 */
public final class RejectWriter implements AutoCloseable {
  private final Path file;
  private final String inputName;
  private final FileChannel channel;
  private final ByteBuffer buf = ByteBuffer.allocate(8192);
  private final StringBuilder line = new StringBuilder(256);
  private long length;
  private long shortBy;
  private boolean closed;

  private RejectWriter(Path file, String inputName, FileChannel channel, long length) {
    this.file = file;
    this.inputName = inputName;
    this.channel = channel;
    this.length = length;
  }

  /** Creates (or empties) the reject file of a new load and writes the header comment. */
  public static RejectWriter create(Path file, String inputName, String table) {
    RejectWriter w = open(file, inputName, 0, true);
    w.comment(
        "idxkit load: rejected rows of "
            + inputName
            + " for table "
            + table
            + " (line: reason | raw input)");
    return w;
  }

  /**
   * Opens the reject file of a resumed load: cut back to {@code checkpointLength} (what the
   * checkpoint recorded). If the file is shorter than that (it was edited, or lost its tail), it is
   * appended to as it is, and {@link #shortBy()} says by how much.
   */
  public static RejectWriter resume(
      Path file, String inputName, long checkpointLength, long resumeLine) {
    RejectWriter w = open(file, inputName, checkpointLength, false);
    w.comment("resumed at line " + resumeLine);
    return w;
  }

  /** Bytes the file lacked, at a resume, of the length its checkpoint recorded; 0 normally. */
  public long shortBy() {
    return shortBy;
  }

  private static RejectWriter open(Path file, String inputName, long keep, boolean fresh) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      FileChannel ch =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
      try {
        long size = ch.size();
        long at = fresh ? 0 : Math.min(size, Math.max(0, keep));
        ch.truncate(at);
        RejectWriter w = new RejectWriter(file, inputName, ch, at);
        w.shortBy = fresh ? 0 : Math.max(0, keep - size);
        return w;
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot open the reject file " + file, e);
    }
  }

  public Path file() {
    return file;
  }

  /** Appends one reject (buffered; {@link #checkpoint()} makes it durable). */
  public void write(RejectedRow r) {
    line.setLength(0);
    line.append(inputName).append(':').append(r.line()).append(": ");
    if (r.column() != null) {
      line.append("column ").append(r.column()).append(": ");
    }
    escape(r.reason(), line);
    if (r.rawValue() != null) {
      line.append(" | ");
      escape(r.rawValue(), line);
    }
    line.append('\n');
    put(line);
  }

  /** Writes what is buffered, syncs, and returns the file's length: what a checkpoint records. */
  public long checkpoint() {
    flush();
    try {
      channel.force(false);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot sync the reject file " + file, e);
    }
    return length;
  }

  /** Bytes written to the file so far, not counting what is buffered. */
  public long length() {
    return length;
  }

  /** Writes what is buffered (no sync). */
  public void flush() {
    buf.flip();
    try {
      while (buf.hasRemaining()) {
        length += channel.write(buf, length);
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot write the reject file " + file, e);
    } finally {
      buf.clear();
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try (channel) {
      flush();
    } catch (IOException e) {
      throw new IdxkitIOException("cannot close the reject file " + file, e);
    }
  }

  private void comment(String text) {
    line.setLength(0);
    line.append("# ");
    escape(text, line);
    line.append('\n');
    put(line);
  }

  private void put(CharSequence text) {
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    if (bytes.length > buf.remaining()) {
      flush();
    }
    if (bytes.length > buf.capacity()) {
      ByteBuffer big = ByteBuffer.wrap(bytes);
      try {
        while (big.hasRemaining()) {
          length += channel.write(big, length);
        }
      } catch (IOException e) {
        throw new IdxkitIOException("cannot write the reject file " + file, e);
      }
      return;
    }
    buf.put(bytes);
  }

  /** Appends {@code s} with line breaks and tabs escaped: one reject, one line. */
  static void escape(String s, StringBuilder out) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> out.append(c);
      }
    }
  }
}
