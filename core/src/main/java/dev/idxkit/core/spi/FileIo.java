package dev.idxkit.core.spi;

import dev.idxkit.core.internal.io.Madvise;
import dev.idxkit.core.internal.io.PageFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * How the store and the rebuilder open the channels of their files: area page files ({@link
 * PageFile}), the write-ahead log, the meta file and the rebuilder's sort runs. Every positional
 * write, read, {@code force} and {@code truncate} on those files goes through a channel this
 * returns.
 *
 * <p>Why it exists: fault injection. Tests pass an implementation that wraps the real channel and
 * fails on purpose - short writes, an {@code IOException} after N bytes, an fsync that fails,
 * {@code No space left on device}, bit flips in what a read returns - so that what happens when the
 * disk misbehaves is tested, not hoped for. It travels explicitly in the options ({@code
 * StoreOptions.fileIo}), never through a static switch.
 *
 * <p>Cost in production: {@link #DEFAULT} returns the JDK's own {@link FileChannel}, so the only
 * price is one interface call per file open; reads and writes are the JDK's, with no wrapper and no
 * check in between.
 *
 * <p>Not covered: the pages {@link PageFile} reads through its memory mapping (Chronicle Bytes maps
 * the file itself; a damaged page is simulated by damaging the file, which is what a bit flip on
 * the device would do), the lock file, and files the loader and the command line open (inputs,
 * reject files, reports). What is covered of the mappings is the advice given to the kernel about
 * them ({@link #advise}): a test can refuse it, as a kernel or another OS would.
 */
@FunctionalInterface
public interface FileIo {
  /**
   * The real thing: {@link FileChannel#open(Path, Set, java.nio.file.attribute.FileAttribute[])}.
   */
  FileIo DEFAULT = FileChannel::open;

  /** Opens {@code path} with {@code options}, as {@link FileChannel#open} does. */
  FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;

  /** How a mapped range is about to be read, as {@code madvise(2)} puts it. */
  enum Advice {
    /** Point reads: no read-around on a page fault (MADV_RANDOM). */
    RANDOM,
    /** One pass in order: aggressive read-ahead, pages dropped behind (MADV_SEQUENTIAL). */
    SEQUENTIAL,
    /** Read soon: start reading the range now, asynchronously (MADV_WILLNEED). */
    WILL_NEED
  }

  /**
   * Tells the kernel how the mapped memory {@code [address, address + length)} of a file opened
   * through this will be read: {@code madvise(2)}. {@code address} is aligned to the OS page.
   * Advice only changes speed, never what a read returns, so a refusal is not an error for the
   * store: it reads on without advice and says so ({@code idxkit info}).
   *
   * @throws IOException when the call is refused or cannot be made here (another OS, no native
   *     access)
   */
  default void advise(long address, long length, Advice advice) throws IOException {
    Madvise.advise(address, length, advice);
  }
}
