package dev.idxkit.core.internal.txn;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.internal.io.PageFile;
import dev.idxkit.core.internal.log.PageIndex;
import dev.idxkit.core.internal.meta.FreeList;
import dev.idxkit.core.spi.FileIo;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The area page files of one database directory, {@code <name>.area} each, indexed by area id.
 *
 * <p>Call order: the store opens every area its meta names ({@link #open}); recovery opens the
 * areas that replayed DDL created ({@link #openMissing}); a DDL transaction {@link #create}s a file
 * for a new area, and {@link #discard}s it if it rolls back (no meta references such a file, so a
 * crash in between leaves only an unreferenced file that the next create replaces); the checkpoint
 * {@link #sync}s the areas it wrote; {@link #close} closes them all.
 *
 * <p>Layout: page 0 of every file is its {@link AreaHeader} (database id, area id and name),
 * checked at open so a file from another database is refused; pages 1.. are the area's pages,
 * numbered within the area. A file may be shorter than its area's high-water mark only where the
 * missing pages are free or still in the log ({@link #checkLengths}).
 *
 * <p>The array of files is replaced, never changed in place, so readers need no lock to find a
 * file; adding and removing areas happens with the writer held.
 */
final class AreaFiles implements AutoCloseable {
  private static final Pattern AREA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private final Path dir;
  private final int pageSize;
  private final UUID dbId;
  private final boolean readOnly;
  private final FileIo io;
  private volatile PageFile[] files = new PageFile[0];

  AreaFiles(Path dir, int pageSize, UUID dbId, boolean readOnly, FileIo io) {
    this.dir = dir;
    this.pageSize = pageSize;
    this.dbId = dbId;
    this.readOnly = readOnly;
    this.io = io;
  }

  /** Opens every area {@code meta} names. */
  void openAll(MetaState meta) {
    for (int a = 0; a < meta.areaSlots(); a++) {
      String name = meta.areaName(a);
      if (name != null) {
        open(a, name);
      }
    }
  }

  /** Opens the areas of {@code b} not open yet: those a replayed DDL transaction created. */
  void openMissing(MetaState.Builder b) {
    for (int a = 0; a < b.areaSlots(); a++) {
      String name = b.areaName(a);
      if (name != null && (a >= files.length || files[a] == null)) {
        open(a, name);
      }
    }
  }

  /** The file of area {@code area}. */
  PageFile file(int area) {
    PageFile[] a = files;
    if (area < 0 || area >= a.length || a[area] == null) {
      throw new InvalidInputException("no area " + area + " in " + dir);
    }
    return a[area];
  }

  /** One past the highest area id open. */
  int slots() {
    return files.length;
  }

  long pagesRead(int area) {
    PageFile[] a = files;
    return area >= 0 && area < a.length && a[area] != null ? a[area].pagesRead() : 0;
  }

  long pagesWritten(int area) {
    PageFile[] a = files;
    return area >= 0 && area < a.length && a[area] != null ? a[area].pagesWritten() : 0;
  }

  /** Creates and opens the file of a new area (DDL); the area is live once its edit commits. */
  void create(int area, String name) {
    checkName(name);
    Path file = dir.resolve(name + ".area");
    if (area < files.length && files[area] != null) {
      throw new IllegalStateException("area " + area + " already exists");
    }
    // A file left by a DDL transaction that never committed is not referenced by any meta.
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot replace unreferenced area file " + file, e);
    }
    writeNew(dir, pageSize, area, name, dbId, io);
    open(area, name);
  }

  /** Forgets and deletes an area file whose creating transaction rolled back. */
  void discard(int area) {
    PageFile f = files[area];
    if (f == null) {
      return;
    }
    PageFile[] a = files.clone();
    a[area] = null;
    files = a;
    f.close();
    try {
      Files.deleteIfExists(f.path());
    } catch (IOException e) {
      // An unreferenced file; the next DDL creating this area replaces it.
    }
  }

  /** Fsyncs the areas marked in {@code touched} (indexed by area id). */
  void sync(boolean[] touched) {
    for (int a = 0; a < touched.length; a++) {
      if (touched[a]) {
        file(a).sync();
      }
    }
  }

  /**
   * Refuses an area file shorter than its high-water mark: it lost pages the meta references. Pages
   * past the end may legitimately be missing when they are free (a bulk writer reserved them and
   * never wrote them) or when their image is still in the log.
   */
  void checkLengths(MetaState meta, List<FreeList> free, PageIndex inLog) {
    PageFile[] a = files;
    for (int area = 0; area < a.length; area++) {
      PageFile f = a[area];
      if (f == null) {
        continue;
      }
      long hwm = meta.hwm(area);
      long have = f.sizeInPages();
      FreeList fl = area < free.size() ? free.get(area) : new FreeList();
      for (long p = have; p < hwm; p++) {
        if (!inLog.contains(area, p) && !fl.contains(p)) {
          throw new CorruptDatabaseException(
              f.path(),
              "file has "
                  + have
                  + " pages but the database uses page "
                  + p
                  + " (high-water mark "
                  + hwm
                  + "; file truncated?)");
        }
      }
    }
  }

  @Override
  public void close() {
    for (PageFile f : files) {
      if (f != null) {
        f.close();
      }
    }
  }

  /** Writes the file of a new area: its header page, fsynced. */
  static void writeNew(Path dir, int pageSize, int area, String name, UUID dbId, FileIo io) {
    PageFile f = PageFile.open(dir.resolve(name + ".area"), pageSize, true, false, io);
    try {
      ByteBuffer b = ByteBuffer.allocateDirect(pageSize);
      Page p = new Page(net.openhft.chronicle.bytes.BytesStore.wrap(b), 0, pageSize);
      AreaHeader.format(p, area, name, dbId);
      f.write(0, b);
      f.sync();
    } finally {
      f.close();
    }
  }

  static void checkName(String name) {
    if (name == null || !AREA_NAME.matcher(name).matches()) {
      throw new InvalidInputException(
          "area name : " + name + " (expected: lower-case letters, digits and _, at most 63)");
    }
  }

  private void open(int area, String name) {
    PageFile f = PageFile.open(dir.resolve(name + ".area"), pageSize, false, readOnly, io);
    try {
      AreaHeader.verify(f, area, name, dbId);
    } catch (RuntimeException e) {
      f.close();
      throw e;
    }
    PageFile[] a = Arrays.copyOf(files, Math.max(files.length, area + 1));
    a[area] = f;
    files = a;
  }
}
