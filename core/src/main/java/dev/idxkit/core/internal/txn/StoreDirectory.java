package dev.idxkit.core.internal.txn;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.internal.log.Wal;
import dev.idxkit.core.internal.log.WalFormat;
import dev.idxkit.core.internal.meta.MetaCodec;
import dev.idxkit.core.internal.meta.MetaFile;
import dev.idxkit.core.spi.MetaState;
import dev.idxkit.core.spi.Page;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Making and opening a database directory, up to the point where a {@link Store} takes over.
 *
 * <p>Create writes, in this order: each area file with its header page, the meta file (generation
 * 1, the catalog, a fresh log salt), and the log reset to that salt; a crash before the log exists
 * leaves a meta of generation 1 whose log is missing, which open accepts. Open checks that the
 * directory holds a meta file, takes the directory lock (one read-write opener), reads the newest
 * valid meta slot, and hands lock and meta to the store's constructor, which opens the areas and
 * the log and recovers; whatever fails on the way releases what was taken.
 */
final class StoreDirectory {
  private StoreDirectory() {}

  /** Creates a database directory (absent or empty) with the given areas and catalog. */
  static void create(
      Path dir, StoreOptions options, Map<Integer, String> initialAreas, byte[] catalog) {
    try {
      Files.createDirectories(dir);
      try (var entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new InvalidInputException(
              "cannot create database " + dir + ": directory is not empty");
        }
      }
    } catch (IOException e) {
      throw new IdxkitIOException("cannot create database directory " + dir, e);
    }
    UUID id = UUID.randomUUID();
    MetaState.Builder b = MetaState.builder(id, options.pageSize()).generation(1).catalog(catalog);
    for (var e : initialAreas.entrySet()) {
      AreaFiles.checkName(e.getValue());
      b.area(e.getKey(), e.getValue());
      AreaFiles.writeNew(dir, options.pageSize(), e.getKey(), e.getValue(), id, options.fileIo());
    }
    long salt = WalFormat.newSalt();
    byte[] meta = MetaCodec.encode(b.build(), List.of());
    MetaFile.create(dir.resolve("meta"), 1, meta, salt, options.fileIo()).close();
    Wal w = Wal.open(dir.resolve("wal"), options.pageSize(), false, options.fileIo());
    w.reset(salt);
    w.close();
  }

  /** Opens a database directory, recovering committed work from the log. */
  static Store open(Path dir, StoreOptions options) {
    if (!Files.isDirectory(dir)) {
      throw new InvalidInputException("no database at " + dir + " (not a directory)");
    }
    if (!Files.exists(dir.resolve("meta"))) {
      throw new InvalidInputException("no database at " + dir + " (no meta file)");
    }
    DirectoryLock lock = DirectoryLock.acquire(dir, options.readOnly());
    MetaFile mf = null;
    try {
      mf = MetaFile.open(dir.resolve("meta"), options.readOnly(), options.fileIo());
      MetaCodec.Decoded meta;
      try {
        meta = MetaCodec.decode(mf.readCurrent());
      } catch (IllegalArgumentException e) {
        throw new CorruptDatabaseException(mf.path(), e.getMessage());
      }
      Page.checkSize(meta.state().pageSize());
      return new Store(dir, options, lock, mf, meta);
    } catch (RuntimeException e) {
      if (mf != null) {
        mf.close();
      }
      lock.close();
      throw e;
    }
  }
}
