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
 * @param dirtyPageBytes the memory for pages changed since the last checkpoint (held whole until a
 *     checkpoint writes them home): a checkpoint starts beside the commits when the pages changed
 *     since the last one started pass half of it, and a commit waits for it when those and the
 *     pages it is writing pass all of it; by default a sixteenth of the machine's memory, at least
 *     64 MiB and at most 1 GiB, and no more than a quarter of the JVM's direct memory ({@link
 *     #defaultDirtyPageBytes})
 * @param readOnly open without writing anything: no recovery checkpoint, writes refused
 * @param fileIo opens the channels of the area files, the log and the meta file (and, for a rebuild
 *     of this database, its sort runs): {@link FileIo#DEFAULT} in production, a fault-injecting one
 *     in tests
 * @param writeBehind how a checkpoint and the log ask the kernel to start writing out as they go
 *     ({@link WriteBehind}): {@link WriteBehind#NATIVE} in production, a refusing one in tests
 * @param changeBufferBytes the heap for the change buffers of non-unique indexes (entries inserted
 *     and deleted by transactions, held sorted in memory and merged into their trees in key order,
 *     {@code ChangeBuffer}): past it (or past a quarter of {@code dirtyPageBytes}, if less: each
 *     checkpoint beside the commits copies the buffers into the log), the biggest buffers are
 *     merged until half of it is left; a checkpoint that holds the writer merges them all first. 0
 *     turns buffering off (every change goes to its tree at once). By default {@link
 *     #DEFAULT_CHANGE_BUFFER_BYTES}.
 */
public record StoreOptions(
    int pageSize,
    Durability durability,
    long checkpointBytes,
    int asyncFlushMillis,
    boolean readOnly,
    FileIo fileIo,
    long dirtyPageBytes,
    WriteBehind.Kernel writeBehind,
    long changeBufferBytes) {
  /**
   * 512 MiB: a checkpoint starts beside the commits when the current log segment passes half of it.
   * The log holds the operations of each commit (tens of bytes per row), so it is rarely what
   * starts a checkpoint; what a bigger log costs is replay time at open after a crash and disk
   * space until the checkpoint empties the segment.
   */
  public static final long DEFAULT_CHECKPOINT_BYTES = 512L << 20;

  /**
   * The default change-buffer memory: a sixteenth of the JVM's heap, at least 1 MiB and at most 64
   * MiB. A buffered change costs about 64 bytes of heap besides its entry; 64 MiB holds some 800 k
   * changes of 16-byte entries, which a merge spreads over the leaves of the trees it touches.
   */
  public static final long DEFAULT_CHANGE_BUFFER_BYTES =
      Math.max(1L << 20, Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16));

  /** The default dirty-page memory on this machine and JVM: {@link #defaultDirtyPageBytes}. */
  public static final long DEFAULT_DIRTY_PAGE_BYTES =
      defaultDirtyPageBytes(physicalMemory(), maxDirectMemory());

  /**
   * The default memory for dirty pages: a sixteenth of {@code physical}, at least 64 MiB and at
   * most 1 GiB, and no more than a quarter of {@code maxDirect} (page images are direct buffers,
   * and a JVM refuses direct memory past {@code -XX:MaxDirectMemorySize}, its heap size by default;
   * 1 MiB at the least).
   *
   * <p>Why it follows the machine: a B+tree taking random inserts changes a page per insert once it
   * is bigger than this memory, and every changed page is written twice (double write and home) per
   * checkpoint; while the pages the inserts touch fit, a page is written once per checkpoint
   * however many inserts it took. The 256 MiB this was before is less than random inserts into a
   * bulk-built 10 M-key tree touch (some 400 MB: every leaf, and the leaf its first insert splits
   * off), on a machine of 24 GiB. Engines with a page cache size it from memory the same way, and
   * more boldly (WiredTiger: half of memory less 1 GiB); the cap keeps a library's share modest.
   */
  public static long defaultDirtyPageBytes(long physical, long maxDirect) {
    long fromMachine = Math.max(64L << 20, Math.min(1L << 30, physical / 16));
    return Math.max(1L << 20, Math.min(fromMachine, maxDirect / 4));
  }

  private static long physicalMemory() {
    try {
      if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
          instanceof com.sun.management.OperatingSystemMXBean os) {
        return os.getTotalMemorySize();
      }
    } catch (RuntimeException | LinkageError e) {
      // No management beans here: the floor below is used.
    }
    return 0;
  }

  private static long maxDirectMemory() {
    try {
      var hotspot =
          java.lang.management.ManagementFactory.getPlatformMXBean(
              com.sun.management.HotSpotDiagnosticMXBean.class);
      if (hotspot != null) {
        long set = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
        if (set > 0) {
          return set;
        }
      }
    } catch (RuntimeException | LinkageError e) {
      // Not HotSpot, or no such option: the JDK's default below.
    }
    return Runtime.getRuntime().maxMemory(); // what MaxDirectMemorySize=0 means
  }

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
    if (changeBufferBytes < 0) {
      throw new InvalidInputException(
          "changeBufferBytes : " + changeBufferBytes + " (expected: >= 0; 0 for no buffering)");
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
        WriteBehind.NATIVE,
        DEFAULT_CHANGE_BUFFER_BYTES);
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
        WriteBehind.NATIVE,
        DEFAULT_CHANGE_BUFFER_BYTES);
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
        writeBehind,
        changeBufferBytes);
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
        writeBehind,
        changeBufferBytes);
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
        writeBehind,
        changeBufferBytes);
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
        writeBehind,
        changeBufferBytes);
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
        writeBehind,
        changeBufferBytes);
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
        kernel,
        changeBufferBytes);
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
        writeBehind,
        changeBufferBytes);
  }

  public StoreOptions withChangeBufferBytes(long bytes) {
    return new StoreOptions(
        pageSize,
        durability,
        checkpointBytes,
        asyncFlushMillis,
        readOnly,
        fileIo,
        dirtyPageBytes,
        writeBehind,
        bytes);
  }
}
