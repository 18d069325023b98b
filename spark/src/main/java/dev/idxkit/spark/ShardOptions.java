package dev.idxkit.spark;

import dev.idxkit.core.InvalidInputException;
import java.io.Serializable;

/**
 * How {@link IdxkitSpark#write} shards a DataFrame. Serializable: every task carries it.
 *
 * @param shards key ranges (and so shard databases and tasks), 1..100000
 * @param pageSize page size of every shard, a power of two in 4..64 KiB
 * @param sortMemoryBytes sort memory of the rebuilder inside each task (secondary indexes)
 * @param sortDir where each task's rebuilder writes sort runs, on the executor's local disk; null
 *     for the executor's {@code java.io.tmpdir}
 * @param fault called by each task just before it commits its shard (tests inject failures with it;
 *     {@link TaskFault#NONE} otherwise)
 */
public record ShardOptions(
    int shards, int pageSize, long sortMemoryBytes, String sortDir, TaskFault fault)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public ShardOptions {
    if (shards < 1 || shards > 100_000) {
      throw new InvalidInputException("shards : " + shards + " (expected: 1..100000)");
    }
    if (pageSize < 4096 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
      throw new InvalidInputException(
          "pageSize : " + pageSize + " (expected: a power of two in 4096..65536)");
    }
    if (sortMemoryBytes < (1L << 20)) {
      throw new InvalidInputException(
          "sortMemoryBytes : " + sortMemoryBytes + " (expected: >= 1 MiB)");
    }
    if (fault == null) {
      throw new NullPointerException("fault");
    }
  }

  /** {@code shards} ranges, 8 KiB pages, 64 MiB of sort memory per task. */
  public static ShardOptions of(int shards) {
    return new ShardOptions(shards, 8192, 64L << 20, null, TaskFault.NONE);
  }

  public ShardOptions withPageSize(int bytes) {
    return new ShardOptions(shards, bytes, sortMemoryBytes, sortDir, fault);
  }

  public ShardOptions withSortMemory(long bytes) {
    return new ShardOptions(shards, pageSize, bytes, sortDir, fault);
  }

  public ShardOptions withSortDir(String dir) {
    return new ShardOptions(shards, pageSize, sortMemoryBytes, dir, fault);
  }

  public ShardOptions withFault(TaskFault f) {
    return new ShardOptions(shards, pageSize, sortMemoryBytes, sortDir, f);
  }

  /** A failure injected into a task before it commits: fault-injection for tests. */
  @FunctionalInterface
  public interface TaskFault extends Serializable {
    TaskFault NONE = (partition, attempt) -> {};

    /** Called with the partition and the attempt number (0 for the first attempt). */
    void beforeCommit(int partition, int attempt);
  }
}
