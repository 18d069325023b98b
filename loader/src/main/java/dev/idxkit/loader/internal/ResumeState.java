package dev.idxkit.loader.internal;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.ProblemText;
import dev.idxkit.core.spi.PageRuns;
import dev.idxkit.loader.IndexMode;
import dev.idxkit.loader.input.ResumePoint;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A load's checkpoint as stored in the database under {@link #key(String) load:&lt;table&gt;}:
 * where to continue reading, the load's counters, and what a restart needs to undo it. Written in
 * the same publish (bulk modes) or commit (live mode) as the rows it counts, so the two can never
 * disagree.
 *
 * <h2>Format (version {@value #FORMAT_VERSION}, big-endian)</h2>
 *
 * <pre>
 *  0 u8   format version                    1 u8   phase: 1 loading, 2 building indexes
 *  2 u8   index mode: 1 deferred, 2 none, 3 live
 *  3 u8   reserved (0)                      4 i32  table id
 *  8 i64  load began (epoch milliseconds)
 * 16 i64  resume offset (bytes or rows)    24 i64  resume line (1-based); -1 and 0: the start
 * 32 i64  records read                     40 i64  rows loaded
 * 48 i64  rows rejected                    56 i64  checkpoints (the whole load)
 * 64 i64  table rows before the load       72 i64  table rows at this checkpoint
 * 80 i64  reject file length at this checkpoint, -1 without a reject file
 * 88 str  input identity   (str = i32 byte length, then UTF-8)
 *    str  reject file path (empty without a reject file)
 *    i32  runs of the table's heap pages before the load, then per run: i64 start, i64 length
 * </pre>
 *
 * The page runs let a restart free exactly the pages the load added: a bulk load never writes into
 * a page the table already had. Tables filled by bulk loads have a handful of runs; one filled by
 * single inserts has about one run per 256 pages at worst.
 *
 * @param phase {@link #LOADING} or {@link #BUILDING_INDEXES} (every row is in; the deferred build
 *     remains)
 * @param mode the load's index mode: a resume must use the same
 * @param tableId the target table's id, to catch a table recreated under the same name
 * @param beganMillis when the load (its first run) began
 * @param resume where the next run reads from; null for the input's start (stored as offset -1,
 *     line 0), which a text input with a header cannot express as a {@link ResumePoint}
 * @param recordsRead rows and rejects read up to {@code resume}
 * @param rowsLoaded rows in the table from this load, as of this checkpoint
 * @param rejected rejects up to {@code resume}
 * @param checkpoints checkpoints of the whole load so far
 * @param tableRowsBefore the table's row count before the load
 * @param tableRowsNow the table's row count at this checkpoint (a restart refuses if it changed)
 * @param rejectBytes the reject file's length at this checkpoint, -1 without one
 * @param inputIdentity the input's {@link dev.idxkit.loader.LoadInput#identity()}
 * @param rejectFile the reject file's path, or null
 * @param pagesBefore the table's heap pages before the load (bulk modes; empty for live)
 */
public record ResumeState(
    int phase,
    IndexMode mode,
    int tableId,
    long beganMillis,
    ResumePoint resume,
    long recordsRead,
    long rowsLoaded,
    long rejected,
    long checkpoints,
    long tableRowsBefore,
    long tableRowsNow,
    long rejectBytes,
    String inputIdentity,
    Path rejectFile,
    PageRuns pagesBefore) {
  public static final int FORMAT_VERSION = 1;
  public static final int LOADING = 1;
  public static final int BUILDING_INDEXES = 2;

  private static final int FIXED = 88;

  /** The resume-point key of loads into {@code table}: {@code load:} and its lower-case name. */
  public static String key(String table) {
    return "load:" + table.toLowerCase(Locale.ROOT);
  }

  public byte[] encode() {
    byte[] identity = inputIdentity.getBytes(StandardCharsets.UTF_8);
    byte[] reject =
        rejectFile == null ? new byte[0] : rejectFile.toString().getBytes(StandardCharsets.UTF_8);
    ByteBuffer b =
        ByteBuffer.allocate(
            FIXED + 4 + identity.length + 4 + reject.length + 4 + 16 * pagesBefore.runCount());
    b.put((byte) FORMAT_VERSION).put((byte) phase).put((byte) modeCode(mode)).put((byte) 0);
    b.putInt(tableId).putLong(beganMillis);
    b.putLong(resume == null ? -1 : resume.offset()).putLong(resume == null ? 0 : resume.line());
    b.putLong(recordsRead).putLong(rowsLoaded).putLong(rejected).putLong(checkpoints);
    b.putLong(tableRowsBefore).putLong(tableRowsNow).putLong(rejectBytes);
    b.putInt(identity.length).put(identity);
    b.putInt(reject.length).put(reject);
    b.putInt(pagesBefore.runCount());
    for (int i = 0; i < pagesBefore.runCount(); i++) {
      b.putLong(pagesBefore.runStart(i)).putLong(pagesBefore.runLength(i));
    }
    return b.array();
  }

  /**
   * Reads a stored checkpoint.
   *
   * @param where the database directory, for the error message
   * @throws CorruptDatabaseException if the bytes are not a checkpoint of this format
   */
  public static ResumeState decode(byte[] bytes, String key, Path where) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    try {
      int version = b.get() & 0xFF;
      if (version != FORMAT_VERSION) {
        throw damaged(
            where,
            key,
            "format version " + version + " (expected: " + FORMAT_VERSION + "; a newer idxkit?)");
      }
      int phase = b.get() & 0xFF;
      if (phase != LOADING && phase != BUILDING_INDEXES) {
        throw damaged(where, key, "phase " + phase + " (expected: 1 or 2)");
      }
      IndexMode mode = modeOf(b.get() & 0xFF, where, key);
      b.get();
      int tableId = b.getInt();
      long began = b.getLong();
      long offset = b.getLong();
      long line = b.getLong();
      boolean start = offset == -1 && line == 0;
      if (!start && (offset < 0 || line < 1)) {
        throw damaged(where, key, "resume point " + offset + "/" + line);
      }
      long recordsRead = b.getLong();
      long rowsLoaded = b.getLong();
      long rejected = b.getLong();
      long checkpoints = b.getLong();
      long rowsBefore = b.getLong();
      long rowsNow = b.getLong();
      long rejectBytes = b.getLong();
      String identity = string(b, where, key);
      String reject = string(b, where, key);
      int runs = b.getInt();
      if (runs < 0 || runs > b.remaining() / 16) {
        throw damaged(where, key, runs + " page runs in " + b.remaining() + " bytes");
      }
      PageRuns pages = PageRuns.EMPTY;
      for (int i = 0; i < runs; i++) {
        pages = pages.addRun(b.getLong(), b.getLong());
      }
      if (b.hasRemaining()) {
        throw damaged(where, key, b.remaining() + " bytes after the end");
      }
      return new ResumeState(
          phase,
          mode,
          tableId,
          began,
          start ? null : new ResumePoint(offset, line),
          recordsRead,
          rowsLoaded,
          rejected,
          checkpoints,
          rowsBefore,
          rowsNow,
          rejectBytes,
          identity,
          reject.isEmpty() ? null : Path.of(reject),
          pages);
    } catch (BufferUnderflowException | IllegalStateException e) {
      throw damaged(where, key, "cut short or inconsistent (" + ProblemText.of(e) + ")");
    }
  }

  /** This state moved on to {@code at} with these counts ({@code checkpoints} unchanged). */
  public ResumeState withProgress(
      ResumePoint at, long records, long rows, long rejects, long tableRows, long rejectLength) {
    return new ResumeState(
        phase,
        mode,
        tableId,
        beganMillis,
        at,
        records,
        rows,
        rejects,
        checkpoints,
        tableRowsBefore,
        tableRows,
        rejectLength,
        inputIdentity,
        rejectFile,
        pagesBefore);
  }

  /** This state with one more checkpoint counted. */
  public ResumeState counted() {
    return new ResumeState(
        phase,
        mode,
        tableId,
        beganMillis,
        resume,
        recordsRead,
        rowsLoaded,
        rejected,
        checkpoints + 1,
        tableRowsBefore,
        tableRowsNow,
        rejectBytes,
        inputIdentity,
        rejectFile,
        pagesBefore);
  }

  /** This state for a resumed run that writes its rejects to {@code file} (or none). */
  public ResumeState withRejectFile(Path file, long length) {
    return new ResumeState(
        phase,
        mode,
        tableId,
        beganMillis,
        resume,
        recordsRead,
        rowsLoaded,
        rejected,
        checkpoints,
        tableRowsBefore,
        tableRowsNow,
        length,
        inputIdentity,
        file,
        pagesBefore);
  }

  public ResumeState withPhase(int p) {
    return new ResumeState(
        p,
        mode,
        tableId,
        beganMillis,
        resume,
        recordsRead,
        rowsLoaded,
        rejected,
        checkpoints,
        tableRowsBefore,
        tableRowsNow,
        rejectBytes,
        inputIdentity,
        rejectFile,
        pagesBefore);
  }

  /** A one-line description for messages: how far the load got. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "%s load began %s, %,d rows loaded, %,d rejected, checkpoint at %s%s",
        mode.name().toLowerCase(Locale.ROOT),
        java.time.Instant.ofEpochMilli(beganMillis),
        rowsLoaded,
        rejected,
        resume == null ? "the start" : String.format(Locale.ROOT, "line %,d", resume.line()),
        phase == BUILDING_INDEXES ? ", every row in, index build pending" : "");
  }

  private static int modeCode(IndexMode m) {
    return switch (m) {
      case DEFERRED -> 1;
      case NONE -> 2;
      case LIVE -> 3;
    };
  }

  private static IndexMode modeOf(int code, Path where, String key) {
    return switch (code) {
      case 1 -> IndexMode.DEFERRED;
      case 2 -> IndexMode.NONE;
      case 3 -> IndexMode.LIVE;
      default -> throw damaged(where, key, "index mode " + code + " (expected: 1..3)");
    };
  }

  private static String string(ByteBuffer b, Path where, String key) {
    int n = b.getInt();
    if (n < 0 || n > b.remaining()) {
      throw damaged(where, key, "string of " + n + " bytes with " + b.remaining() + " left");
    }
    byte[] s = new byte[n];
    b.get(s);
    return new String(s, StandardCharsets.UTF_8);
  }

  private static CorruptDatabaseException damaged(Path where, String key, String detail) {
    return new CorruptDatabaseException(
        where.resolve("meta"), "resume point " + key + ": " + detail);
  }
}
