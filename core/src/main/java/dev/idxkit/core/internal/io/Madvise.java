package dev.idxkit.core.internal.io;

import dev.idxkit.core.ProblemText;
import dev.idxkit.core.spi.FileIo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.Out;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;

/**
 * {@code madvise(2)}, {@code mincore(2)} and {@code sync_file_range(2)} from the C library, called
 * through jnr-ffi (Java 17 has no supported way to call them; the FFM API is final only from Java
 * 22).
 *
 * <p>Why: reads go through memory mappings, and with no advice the kernel answers every page fault
 * on a cold mapping by reading around it as far as the device's read-ahead allows ({@code
 * read_ahead_kb}, 8 MiB on the development VM's disk): a random 8 KiB lookup then pulls megabytes,
 * and random reads run 25-100 times slower than {@code pread} (the {@code io} experiment). {@link
 * FileIo.Advice#RANDOM} turns read-around off for a range; {@link FileIo.Advice#WILL_NEED} starts
 * asynchronous reads of a range a scan is about to walk, which gives scans their read-ahead back
 * explicitly.
 *
 * <p>Where it works: Linux (the advice numbers below are Linux's; macOS and the BSDs use the same
 * four). Elsewhere, or when the library cannot be loaded, {@link #unavailable()} says why, every
 * call throws, and {@link PageFile} carries on without advice.
 */
public final class Madvise {
  /** The C library's functions this needs; errno is saved after each call. */
  public interface LibC {
    @SaveError
    int madvise(Pointer addr, @size_t long length, int advice);

    @SaveError
    int mincore(Pointer addr, @size_t long length, @Out byte[] vec);

    String strerror(int errnum);

    int getpagesize();

    @SaveError
    int open(String path, int flags);

    @SaveError
    int posix_fadvise(int fd, long offset, long len, int advice);

    int close(int fd);

    @SaveError
    int sync_file_range(int fd, long offset, long nbytes, int flags);
  }

  // <sys/mman.h>: MADV_NORMAL 0, MADV_RANDOM 1, MADV_SEQUENTIAL 2, MADV_WILLNEED 3.
  private static final int MADV_RANDOM = 1;
  private static final int MADV_SEQUENTIAL = 2;
  private static final int MADV_WILLNEED = 3;
  private static final int MADV_DONTNEED = 4;
  // <fcntl.h> on Linux: O_RDONLY 0, POSIX_FADV_DONTNEED 4.
  private static final int POSIX_FADV_DONTNEED = 4;
  // <fcntl.h> on Linux: SYNC_FILE_RANGE_WRITE 2 (start writeback of dirty pages, do not wait).
  private static final int SYNC_FILE_RANGE_WRITE = 2;
  private static final boolean LINUX =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");

  private static final LibC LIBC;
  private static final Runtime RUNTIME;
  private static final String UNAVAILABLE;
  private static final int OS_PAGE;

  static {
    LibC lib = null;
    Runtime rt = null;
    String why = null;
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (!os.contains("linux") && !os.contains("mac") && !os.contains("bsd")) {
      why = "madvise is not available on " + System.getProperty("os.name");
    } else {
      try {
        lib = LibraryLoader.create(LibC.class).failImmediately().load("c");
        rt = Runtime.getRuntime(lib);
      } catch (Throwable t) { // UnsatisfiedLinkError, or jffi's stub refused by the JVM
        lib = null;
        why = "the C library could not be loaded through jnr-ffi (" + ProblemText.of(t) + ")";
      }
    }
    LIBC = lib;
    RUNTIME = rt;
    UNAVAILABLE = why;
    OS_PAGE = lib == null ? 4096 : lib.getpagesize();
  }

  private Madvise() {}

  /** The OS page size ({@code getpagesize}), or 4096 when the library cannot be called. */
  public static int osPageSize() {
    return OS_PAGE;
  }

  /** Why the calls cannot be made here, or null when they can. */
  public static String unavailable() {
    return UNAVAILABLE;
  }

  /**
   * {@code madvise(address, length, advice)}; {@code address} must be aligned to the OS page.
   *
   * @throws IOException naming errno's text when the kernel refuses, or why the call cannot be made
   */
  public static void advise(long address, long length, FileIo.Advice advice) throws IOException {
    if (LIBC == null) {
      throw new IOException(UNAVAILABLE);
    }
    int code =
        switch (advice) {
          case RANDOM -> MADV_RANDOM;
          case SEQUENTIAL -> MADV_SEQUENTIAL;
          case WILL_NEED -> MADV_WILLNEED;
        };
    if (LIBC.madvise(Pointer.wrap(RUNTIME, address), length, code) != 0) {
      int errno = RUNTIME.getLastError();
      throw new IOException(
          "madvise(" + advice + ") of " + length + " bytes refused: " + LIBC.strerror(errno));
    }
  }

  /**
   * Takes a file out of the page cache, for experiments that measure cold reads: {@code
   * madvise(DONTNEED)} on this process's mappings of it (each {@code [address, length)} pair in
   * {@code ranges}; mapped pages cannot be evicted), then {@code posix_fadvise(DONTNEED)} on the
   * file (its clean pages leave the cache; dirty ones stay).
   */
  public static void evict(Path file, long[] ranges) throws IOException {
    if (LIBC == null) {
      throw new IOException(UNAVAILABLE);
    }
    for (int i = 0; i + 1 < ranges.length; i += 2) {
      if (LIBC.madvise(Pointer.wrap(RUNTIME, ranges[i]), ranges[i + 1], MADV_DONTNEED) != 0) {
        throw new IOException(
            "madvise(DONTNEED) refused: " + LIBC.strerror(RUNTIME.getLastError()));
      }
    }
    int fd = LIBC.open(file.toString(), 0);
    if (fd < 0) {
      throw new IOException("open " + file + ": " + LIBC.strerror(RUNTIME.getLastError()));
    }
    try {
      if (LIBC.posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0) {
        throw new IOException("posix_fadvise(DONTNEED) of " + file + " refused");
      }
    } finally {
      LIBC.close(fd);
    }
  }

  /**
   * Opens {@code file} read-only for {@link #startWriteback}: writeback is per file, so any
   * descriptor of it will do, and this one is ours to close (the JDK does not expose a channel's).
   *
   * @throws IOException when it cannot be opened, or the call is not available here
   *     (sync_file_range is Linux's)
   */
  public static int openForWriteback(Path file) throws IOException {
    if (LIBC == null || !LINUX) {
      throw new IOException(
          LIBC == null
              ? UNAVAILABLE
              : "sync_file_range is not available on " + System.getProperty("os.name"));
    }
    int fd = LIBC.open(file.toString(), 0);
    if (fd < 0) {
      throw new IOException("open " + file + ": " + LIBC.strerror(RUNTIME.getLastError()));
    }
    return fd;
  }

  /**
   * {@code sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE)}: starts writing the dirty
   * pages of the range to the device and returns without waiting, so a writer that calls it as it
   * goes keeps the device busy while it copies the next pages (PostgreSQL's {@code
   * checkpoint_flush_after}). Durability still comes from the fsync that follows.
   */
  public static void startWriteback(int fd, long offset, long length) throws IOException {
    if (LIBC.sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE) != 0) {
      throw new IOException("sync_file_range refused: " + LIBC.strerror(RUNTIME.getLastError()));
    }
  }

  /** Closes a descriptor from {@link #openForWriteback}. */
  public static void closeFd(int fd) {
    LIBC.close(fd);
  }

  /**
   * Bytes of {@code [address, address + length)} resident in memory per {@code mincore}, counted in
   * whole OS pages; for tests and experiments that check what a read pulled in.
   */
  public static long residentBytes(long address, long length) throws IOException {
    if (LIBC == null) {
      throw new IOException(UNAVAILABLE);
    }
    int osPage = OS_PAGE;
    byte[] vec = new byte[(int) ((length + osPage - 1) / osPage)];
    if (LIBC.mincore(Pointer.wrap(RUNTIME, address), length, vec) != 0) {
      throw new IOException("mincore refused: " + LIBC.strerror(RUNTIME.getLastError()));
    }
    long n = 0;
    for (byte b : vec) {
      n += b & 1;
    }
    return n * osPage;
  }
}
