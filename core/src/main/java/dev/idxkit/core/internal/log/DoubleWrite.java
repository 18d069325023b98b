package dev.idxkit.core.internal.log;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.internal.io.PageFile;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The checkpoint's double write (InnoDB's doublewrite buffer): before a checkpoint writes any page
 * home, it writes every one of them to a file of its own and fsyncs it, so that a crash that tears
 * a home write (the OS writes a page 4 KiB at a time) finds a whole copy of the page here. This is
 * what lets the log hold only the bytes each commit changed (log format 4, {@link RedoRecord}),
 * where format 3 logged each page's full image at its first change after a checkpoint, inside the
 * commit that made it. The images are written once per checkpoint, sequentially, by the checkpoint.
 *
 * <p>Call order. Checkpoint: {@link #create} a new file, write the sealed images to pages 1..n of
 * {@link #file()} (in any order, several writes in flight), then {@link #seal} (fsync, then the
 * header on page 0, fsync again, then the directory), then write the pages home; once the meta that
 * says they are home is written, {@link #deleteAll}. Recovery: {@link #find} the set that applies,
 * install its images, and replay the log's transactions after its LSN only.
 *
 * <p>Why a new file per checkpoint attempt, never an overwritten one: a checkpoint that fails after
 * it began writing home (a full disk) may have torn pages whose only whole copies are its images,
 * and the database stays open; the next attempt must not destroy them before its own are durable.
 * Each attempt's set holds every page of the failed one (the page index is only emptied by a
 * checkpoint that succeeds), so the newest complete set is the one recovery needs.
 *
 * <p>Which set applies at recovery: among the files whose header is whole, the one with the highest
 * checkpoint LSN (then the highest sequence number), if that LSN is above the meta's checkpoint
 * LSN; a set at or below it belongs to a checkpoint that finished. A file whose header is missing
 * or torn was never sealed, so no page was written home after it: it is ignored. A sealed file
 * whose image fails its checksum lost bytes after an fsync: the open is refused, naming it.
 *
 * <p>Layout: a file of the database's page size, {@code dwb.<sequence>} in the database directory:
 *
 * <pre>
 * page 0, the header (little-endian):
 *    0 u64 MAGIC "IDXKDWB1"   8 u32 format version (1)   12 u32 pageSize
 *   16 u64 checkpoint LSN (every image is the page as of it)
 *   24 u64 images n           32 u32 crc32c of [0, 32)    rest of the page: zero
 * pages 1..n: page images, each sealed (its own CRC32C, type, area, page number, lsn), any order
 *
 * e.g. a checkpoint at lsn 907 of data pages 3, 4 and index page 12, 8 KiB pages:
 *   [hdr: 907, n = 3][data 3, lsn 880][data 4, lsn 907][index 12, lsn 901]   4 pages, 32 KiB
 * </pre>
 *
 * <p>Disk: one file the size of the pages the checkpoint writes, for the length of the checkpoint.
 */
public final class DoubleWrite implements AutoCloseable {
  public static final long MAGIC = 0x314257444B584449L; // "IDXKDWB1" little-endian
  public static final int FORMAT_VERSION = 1;
  static final String PREFIX = "dwb.";
  private static final int HEADER_BYTES = 36;

  private final Path dir;
  private final PageFile file;
  private final int pageSize;

  private DoubleWrite(Path dir, PageFile file, int pageSize) {
    this.dir = dir;
    this.file = file;
    this.pageSize = pageSize;
  }

  /** A set that applies at recovery: its file, checkpoint LSN and images (pages 1..n). */
  public record Found(Path path, long checkpointLsn, long images) {}

  /** Creates the next file for a checkpoint's images in {@code dir}. */
  public static DoubleWrite create(Path dir, int pageSize, FileIo io) {
    long next = 1;
    for (Path p : files(dir)) {
      next = Math.max(next, sequence(p) + 1);
    }
    Path path = dir.resolve(PREFIX + next);
    return new DoubleWrite(dir, PageFile.open(path, pageSize, true, false, io), pageSize);
  }

  /** Where the images go: page {@code i + 1} for the i-th image. */
  public PageFile file() {
    return file;
  }

  public Path path() {
    return file.path();
  }

  /**
   * Makes the set durable and valid: fsyncs the images, writes the header saying {@code images}
   * pages as of {@code checkpointLsn}, fsyncs it, and fsyncs the directory so the file's name
   * survives a crash. Only then may any of these pages be written home.
   */
  public void seal(long checkpointLsn, long images) {
    file.sync();
    ByteBuffer h = ByteBuffer.allocateDirect(pageSize).order(ByteOrder.LITTLE_ENDIAN);
    h.putLong(0, MAGIC);
    h.putInt(8, FORMAT_VERSION);
    h.putInt(12, pageSize);
    h.putLong(16, checkpointLsn);
    h.putLong(24, images);
    h.putInt(32, crc(h, 32));
    file.write(0, h);
    file.sync();
    syncDirectory(dir);
  }

  @Override
  public void close() {
    file.close();
  }

  /**
   * The set recovery must install, or null when none applies: the sealed set with the highest LSN
   * above {@code checkpointLsn}. Every one of its images is checked here (checksum, a tree or heap
   * page's header, an LSN no newer than the set's).
   *
   * @throws CorruptDatabaseException when that set's header is whole but an image is not
   */
  public static Found find(Path dir, int pageSize, long checkpointLsn) {
    Found best = null;
    long bestSeq = -1;
    for (Path p : files(dir)) {
      long[] h = readHeader(p, pageSize);
      if (h == null || h[0] <= checkpointLsn) {
        continue;
      }
      long seq = sequence(p);
      if (best == null
          || h[0] > best.checkpointLsn()
          || (h[0] == best.checkpointLsn() && seq > bestSeq)) {
        best = new Found(p, h[0], h[1]);
        bestSeq = seq;
      }
    }
    if (best != null) {
      check(best, pageSize);
    }
    return best;
  }

  /** Hands every image of {@code found} to {@code install}; each is valid only during the call. */
  public static void forEachImage(Found found, int pageSize, ImageConsumer install) {
    try (PageFile f = PageFile.open(found.path(), pageSize, false, true)) {
      for (long i = 1; i <= found.images(); i++) {
        Page image = f.view(i);
        install.accept(image.areaId(), image.pageNo(), image);
      }
    }
  }

  /** Receives one image of a set. */
  @FunctionalInterface
  public interface ImageConsumer {
    void accept(int area, long pageNo, Page image);
  }

  /** Deletes every set in {@code dir}: called once a meta says their pages are home. */
  public static void deleteAll(Path dir) {
    for (Path p : files(dir)) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        throw new IdxkitIOException("cannot delete the checkpoint's double write " + p, e);
      }
    }
  }

  /** The double-write files in {@code dir}. */
  static List<Path> files(Path dir) {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, PREFIX + "*")) {
      for (Path p : s) {
        if (sequence(p) > 0) {
          out.add(p);
        }
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot list " + dir, e);
    }
    return out;
  }

  private static long sequence(Path p) {
    String n = p.getFileName().toString().substring(PREFIX.length());
    if (n.isEmpty() || n.length() > 18 || !n.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Long.parseLong(n);
  }

  // {checkpoint lsn, images} of a whole header, or null.
  private static long[] readHeader(Path p, int pageSize) {
    ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      if (!WalReader.readFully(ch, h, 0)) {
        return null;
      }
      long images = h.getLong(24);
      if (h.getLong(0) != MAGIC
          || h.getInt(32) != crc(h, 32)
          || h.getInt(8) != FORMAT_VERSION
          || h.getInt(12) != pageSize
          || images < 0
          || ch.size() < (images + 1) * pageSize) {
        return null;
      }
      return new long[] {h.getLong(16), images};
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read the checkpoint's double write " + p, e);
    }
  }

  private static void check(Found found, int pageSize) {
    try (PageFile f = PageFile.open(found.path(), pageSize, false, true)) {
      for (long i = 1; i <= found.images(); i++) {
        Page image = f.view(i);
        int stored = image.storedChecksum();
        int actual = image.computeChecksum();
        String problem = null;
        if (stored != actual) {
          problem =
              String.format(
                  "image %d fails its checksum (stored 0x%08x, computed 0x%08x)",
                  i, stored, actual);
        } else if (image.typeCode() != PageType.LEAF.code()
            && image.typeCode() != PageType.BRANCH.code()
            && image.typeCode() != PageType.HEAP.code()
            && image.typeCode() != PageType.OVERFLOW.code()
            && image.typeCode() != PageType.FREE.code()) {
          problem = "image " + i + " has page type " + image.typeCode();
        } else if (image.lsn() > found.checkpointLsn()) {
          problem =
              "image "
                  + i
                  + " (area "
                  + image.areaId()
                  + " page "
                  + image.pageNo()
                  + ") has lsn "
                  + image.lsn()
                  + " (expected: at most the set's "
                  + found.checkpointLsn()
                  + ")";
        }
        if (problem != null) {
          throw new CorruptDatabaseException(
              found.path(),
              problem
                  + "; the set was sealed, so the checkpoint it belongs to may have written"
                  + " pages home: restore the database from a backup");
        }
      }
    }
  }

  private static int crc(ByteBuffer h, int len) {
    CRC32C c = new CRC32C();
    c.update(h.duplicate().position(0).limit(len));
    return (int) c.getValue();
  }

  /**
   * Makes a new file's name durable. Linux fsyncs a directory opened for reading; where the
   * platform refuses to open one, there is nothing more to do from Java.
   */
  private static void syncDirectory(Path dir) {
    FileChannel ch;
    try {
      ch = FileChannel.open(dir, StandardOpenOption.READ);
    } catch (IOException | UnsupportedOperationException e) {
      return;
    }
    try (ch) {
      ch.force(true);
    } catch (IOException e) {
      throw new IdxkitIOException("fsync of directory " + dir + " failed", e);
    }
  }
}
