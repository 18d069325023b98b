package dev.idxkit.core.internal.txn;

import dev.idxkit.core.Durability;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.internal.io.WriteBehind;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.Page;

/**
 * How a store is created and run.
 *
 * @param pageSize page size for a new database (ignored on open: the database's own is used)
 * @param durability default commit durability
 * @param checkpointBytes checkpoint automatically when the log grows past this many bytes; 512 MiB
 *     by default
 * @param asyncFlushMillis how soon an ASYNC commit is fsynced in the background
 * @param dirtyPageBytes checkpoint automatically when the pages changed since the last checkpoint
 *     (held in memory, whole, until then) pass this many bytes; 256 MiB by default
 * @param readOnly open without writing anything: no recovery checkpoint, writes refused
 * @param fileIo opens the channels of the area files, the log and the meta file (and, for a rebuild
 *     of this database, its sort runs): {@link FileIo#DEFAULT} in production, a fault-injecting one
 *     in tests
 * @param writeBehind how a checkpoint and the log ask the kernel to start writing out as they go
 *     ({@link WriteBehind}): {@link WriteBehind#NATIVE} in production, a refusing one in tests
 */
public record StoreOptions(
    int pageSize,
    Durability durability,
    long checkpointBytes,
    int asyncFlushMillis,
    boolean readOnly,
    FileIo fileIo,
    long dirtyPageBytes,
    WriteBehind.Kernel writeBehind) {
  /**
   * 512 MiB: twice the dirty-page bound. Every dirty page enters the log whole once per checkpoint
   * interval (its first change), so the log is always at least as big as the dirty pages: a log
   * bound below {@link #DEFAULT_DIRTY_PAGE_BYTES} (it was 64 MiB) made the dirty-page bound
   * unreachable and checkpointed four times as often, writing the same pages home again. What a
   * bigger log costs is replay time at open after a crash (a full 512 MiB log of small random
   * inserts: 3.6-7.9 s on this machine, recovery checkpoint included) and disk space until the
   * checkpoint truncates it.
   */
  public static final long DEFAULT_CHECKPOINT_BYTES = 512L << 20;

  public static final long DEFAULT_DIRTY_PAGE_BYTES = 256L << 20;

  public StoreOptions {
    Page.checkSize(pageSize);
    if (durability == null) {
      throw new InvalidInputException("durability : null (expected: SYNC, ASYNC or OFF)");
    }
    if (checkpointBytes < 1 << 20) {
      throw new InvalidInputException(
          "checkpointBytes : " + checkpointBytes + " (expected: >= " + (1 << 20) + ")");
    }
    if (asyncFlushMillis < 1) {
      throw new InvalidInputException(
          "asyncFlushMillis : " + asyncFlushMillis + " (expected: >= 1)");
    }
    if (fileIo == null) {
      throw new InvalidInputException("fileIo : null (expected: FileIo.DEFAULT or a test's)");
    }
    if (dirtyPageBytes < 1 << 20) {
      throw new InvalidInputException(
          "dirtyPageBytes : " + dirtyPageBytes + " (expected: >= " + (1 << 20) + ")");
    }
    if (writeBehind == null) {
      throw new InvalidInputException(
          "writeBehind : null (expected: WriteBehind.NATIVE or a test's)");
    }
  }

  /** The options as they were before {@code fileIo}: real files, the default dirty-page bound. */
  public StoreOptions(
      int pageSize,
      Durability durability,
      long checkpointBytes,
      int asyncFlushMillis,
      boolean readOnly) {
    this(
        pageSize,
        durability,
        checkpointBytes,
        asyncFlushMillis,
        readOnly,
        FileIo.DEFAULT,
        DEFAULT_DIRTY_PAGE_BYTES,
        WriteBehind.NATIVE);
  }

  public static StoreOptions defaults() {
    return new StoreOptions(
        Page.DEFAULT_SIZE,
        Durability.SYNC,
        DEFAULT_CHECKPOINT_BYTES,
        200,
        false,
        FileIo.DEFAULT,
        DEFAULT_DIRTY_PAGE_BYTES,
        WriteBehind.NATIVE);
  }

  public StoreOptions withPageSize(int size) {
    return new StoreOptions(
        size,
        durability,
        checkpointBytes,
        asyncFlushMillis,
        readOnly,
        fileIo,
        dirtyPageBytes,
        writeBehind);
  }

  public StoreOptions withDurability(Durability d) {
    return new StoreOptions(
        pageSize,
        d,
        checkpointBytes,
        asyncFlushMillis,
        readOnly,
        fileIo,
        dirtyPageBytes,
        writeBehind);
  }

  public StoreOptions withCheckpointBytes(long bytes) {
    return new StoreOptions(
        pageSize,
        durability,
        bytes,
        asyncFlushMillis,
        readOnly,
        fileIo,
        dirtyPageBytes,
        writeBehind);
  }

  public StoreOptions withReadOnly(boolean ro) {
    return new StoreOptions(
        pageSize,
        durability,
        checkpointBytes,
        asyncFlushMillis,
        ro,
        fileIo,
        dirtyPageBytes,
        writeBehind);
  }

  public StoreOptions withFileIo(FileIo io) {
    return new StoreOptions(
        pageSize,
        durability,
        checkpointBytes,
        asyncFlushMillis,
        readOnly,
        io,
        dirtyPageBytes,
        writeBehind);
  }

  public StoreOptions withWriteBehind(WriteBehind.Kernel kernel) {
    return new StoreOptions(
        pageSize,
        durability,
        checkpointBytes,
        asyncFlushMillis,
        readOnly,
        fileIo,
        dirtyPageBytes,
        kernel);
  }

  public StoreOptions withDirtyPageBytes(long bytes) {
    return new StoreOptions(
        pageSize,
        durability,
        checkpointBytes,
        asyncFlushMillis,
        readOnly,
        fileIo,
        bytes,
        writeBehind);
  }
}
