package dev.idxkit.core;

import java.nio.file.Path;
import java.util.List;

/**
 * A read-only snapshot of a database's figures, taken by {@link Database#stats()} under the read
 * lock: what {@code idxkit info}, the server's {@code /metrics} and {@code /v1/status} show.
 *
 * <p>Counters ({@link AreaStats#pagesRead()}, {@link AreaStats#pagesWritten()}) count since the
 * database was opened in this process; everything else is the committed state at the moment of the
 * call.
 *
 * @param dir the database directory, absolute and normalized
 * @param pageSize bytes per page
 * @param generation the generation of the newest meta slot (one per checkpoint or publish)
 * @param checkpointLsn the log position the newest checkpoint covers
 * @param logBytes the size of the write-ahead log file
 * @param logTransactions committed transactions replayed from the log at open and not yet
 *     checkpointed since
 * @param committedImageBytes bytes of committed page images held in memory until the next
 *     checkpoint
 * @param bufferedChanges index entry changes held in change buffers, not yet merged into their
 *     trees
 * @param readAhead whether the kernel is told how the area files' mappings are read
 */
public record DatabaseStats(
    Path dir,
    int pageSize,
    long generation,
    long checkpointLsn,
    long logBytes,
    long logTransactions,
    long committedImageBytes,
    long bufferedChanges,
    List<AreaStats> areas,
    List<TableStats> tables,
    List<IndexStats> indexes,
    ReadAhead readAhead) {

  public DatabaseStats {
    areas = List.copyOf(areas);
    tables = List.copyOf(tables);
    indexes = List.copyOf(indexes);
  }

  /**
   * One area (page file).
   *
   * @param pages the high-water mark: pages allocated in the file
   * @param freePages pages on the area's free list as of the last commit or publish
   */
  public record AreaStats(
      String name,
      Path file,
      long fileBytes,
      long pages,
      long freePages,
      long pagesRead,
      long pagesWritten) {}

  /**
   * Whether idxkit controls the kernel's read-ahead on the area files' mappings: advised for random
   * reads ({@code madvise}), so a cold point read costs one page and not the device's read-ahead
   * window, with scans asking for their pages ahead. When the advice cannot be given (another OS, a
   * refused call) everything works as before and cold random reads may cost far more.
   *
   * @param controlled true when every area file's advice was accepted
   * @param detail what is done, or why it is not (the first refusal, naming the area file)
   */
  public record ReadAhead(boolean controlled, String detail) {
    /** One line for {@code idxkit info}. */
    public String describe() {
      return controlled ? "controlled (" + detail + ")" : "not controlled: " + detail;
    }
  }

  /** One table: its committed row count and heap pages. */
  public record TableStats(String name, String area, long rows, long heapPages) {}

  /**
   * One index.
   *
   * @param state {@code NONE} when the index has no tree yet
   * @param height levels of its tree (1 for a single leaf); 0 when it has none
   */
  public record IndexStats(
      String name,
      String table,
      List<String> columns,
      boolean unique,
      String area,
      State state,
      int height) {
    public IndexStats {
      columns = List.copyOf(columns);
    }
  }

  /** Whether an index is maintained and usable. */
  public enum State {
    ACTIVE,
    INACTIVE,
    NONE;

    /** The lower-case word the CLI and the server print. */
    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** The area named {@code name}, or null. */
  public AreaStats area(String name) {
    return areas.stream().filter(a -> a.name().equals(name)).findFirst().orElse(null);
  }

  /** The table named {@code name}, or null. */
  public TableStats table(String name) {
    return tables.stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
  }

  /** The index named {@code name}, or null. */
  public IndexStats index(String name) {
    return indexes.stream().filter(i -> i.name().equals(name)).findFirst().orElse(null);
  }
}
