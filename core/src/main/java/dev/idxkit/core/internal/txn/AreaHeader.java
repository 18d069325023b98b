package dev.idxkit.core.internal.txn;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.internal.io.PageFile;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Page 0 of every area file: says which database and area the file belongs to, so a file copied
 * from another database or renamed is refused at open rather than read as garbage.
 *
 * <pre>
 * 0..23  common page header (type AREA_HEADER, page 0)
 * 24 u64 MAGIC "IDXKAREA"   32 u32 FORMAT_VERSION   36 u32 pageSize
 * 40 u64 dbId.msb           48 u64 dbId.lsb          56 u16 nameLength   58 name (UTF-8, <= 64)
 * </pre>
 */
final class AreaHeader {
  static final long MAGIC = 0x414552414B584449L; // "IDXKAREA" little-endian
  static final int FORMAT_VERSION = 1;

  private AreaHeader() {}

  static void format(Page p, int areaId, String name, UUID dbId) {
    p.format(PageType.AREA_HEADER, 0, areaId);
    p.putLong(24, MAGIC);
    p.putInt(32, FORMAT_VERSION);
    p.putInt(36, p.size());
    p.putLong(40, dbId.getMostSignificantBits());
    p.putLong(48, dbId.getLeastSignificantBits());
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    p.putU16(56, n.length);
    p.putBytes(58, n, 0, n.length);
    p.seal(0);
  }

  static void verify(PageFile file, int areaId, String name, UUID dbId) {
    Page p;
    try {
      p = file.read(0);
    } catch (CorruptPageException e) {
      throw new CorruptDatabaseException(file.path(), "area header: " + e.getMessage());
    }
    String problem = null;
    if (p.getLong(24) != MAGIC) {
      problem = "not an idxkit area file";
    } else if (p.getInt(32) != FORMAT_VERSION) {
      problem = "area format " + p.getInt(32) + " (expected: " + FORMAT_VERSION + ")";
    } else if (p.getInt(36) != file.pageSize()) {
      problem = "page size " + p.getInt(36) + " (expected: " + file.pageSize() + ")";
    } else if (p.getLong(40) != dbId.getMostSignificantBits()
        || p.getLong(48) != dbId.getLeastSignificantBits()) {
      problem = "belongs to another database";
    } else if (p.areaId() != areaId) {
      problem = "is area " + p.areaId() + " (expected: " + areaId + " " + name + ")";
    }
    if (problem != null) {
      throw new CorruptDatabaseException(file.path(), problem);
    }
  }
}
