package dev.idxkit.core.spi;

import dev.idxkit.core.internal.meta.FreeList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What the meta slots record, as an immutable snapshot: readers take the current snapshot under the
 * database's read lock and never see a half-applied change. A transaction edits a {@link Builder}
 * and installs the result at commit.
 *
 * <p>The catalog is kept as the encoded schema bytes; the database layer decodes it. Free lists are
 * not here: only the writer uses them, so they live beside the snapshot (see {@link FreeList}).
 */
public final class MetaState {
  private final UUID dbId;
  private final int pageSize;
  private final long generation;
  private final long checkpointLsn;
  private final byte[] catalog;
  private final long[] hwm;
  private final String[] areaNames;
  private final Map<Integer, TableState> tables;
  private final Map<Integer, IndexState> indexes;
  private final Map<String, byte[]> resume;

  private MetaState(Builder b) {
    this.dbId = b.dbId;
    this.pageSize = b.pageSize;
    this.generation = b.generation;
    this.checkpointLsn = b.checkpointLsn;
    this.catalog = b.catalog;
    this.hwm = b.hwm;
    this.areaNames = b.areaNames;
    this.tables = Collections.unmodifiableMap(b.tables);
    this.indexes = Collections.unmodifiableMap(b.indexes);
    this.resume = Collections.unmodifiableMap(b.resume);
  }

  public static Builder builder(UUID dbId, int pageSize) {
    return new Builder(dbId, pageSize);
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  public UUID dbId() {
    return dbId;
  }

  public int pageSize() {
    return pageSize;
  }

  /** Bumped at every meta write; the slot with the highest valid generation wins at open. */
  public long generation() {
    return generation;
  }

  /** The highest committed LSN whose pages are home in the area files. */
  public long checkpointLsn() {
    return checkpointLsn;
  }

  public byte[] catalog() {
    return catalog.clone();
  }

  /** The catalog bytes without a copy; callers must not modify them. */
  public byte[] catalogUnsafe() {
    return catalog;
  }

  /** Pages in use in the area (its high-water mark; page 0 is the area header). */
  public long hwm(int area) {
    return area < hwm.length ? hwm[area] : 0;
  }

  public int areaSlots() {
    return Math.max(hwm.length, areaNames.length);
  }

  /** The area's name (its file is {@code <name>.area}), or null if there is no such area. */
  public String areaName(int area) {
    return area >= 0 && area < areaNames.length ? areaNames[area] : null;
  }

  public TableState table(int id) {
    return tables.getOrDefault(id, TableState.EMPTY);
  }

  public Map<Integer, TableState> tables() {
    return tables;
  }

  /** The index's state, or null if it has none (a new index with no tree). */
  public IndexState index(int id) {
    return indexes.get(id);
  }

  public Map<Integer, IndexState> indexes() {
    return indexes;
  }

  public byte[] resumePoint(String key) {
    byte[] v = resume.get(key);
    return v == null ? null : v.clone();
  }

  public Map<String, byte[]> resumePoints() {
    return resume;
  }

  /** Copy-on-write edits of a snapshot; maps are copied on the first change. */
  public static final class Builder {
    private final UUID dbId;
    private final int pageSize;
    private long generation;
    private long checkpointLsn;
    private byte[] catalog = new byte[0];
    private long[] hwm = new long[0];
    private String[] areaNames = new String[0];
    private Map<Integer, TableState> tables = new TreeMap<>();
    private Map<Integer, IndexState> indexes = new TreeMap<>();
    private Map<String, byte[]> resume = new TreeMap<>();
    private boolean sharedHwm;
    private boolean sharedTables;
    private boolean sharedIndexes;
    private boolean sharedResume;

    private Builder(UUID dbId, int pageSize) {
      this.dbId = dbId;
      this.pageSize = pageSize;
    }

    private Builder(MetaState s) {
      this.dbId = s.dbId;
      this.pageSize = s.pageSize;
      this.generation = s.generation;
      this.checkpointLsn = s.checkpointLsn;
      this.catalog = s.catalog;
      this.hwm = s.hwm;
      this.areaNames = s.areaNames;
      this.tables = s.tables;
      this.indexes = s.indexes;
      this.resume = s.resume;
      sharedHwm = sharedTables = sharedIndexes = sharedResume = true;
    }

    public Builder generation(long g) {
      generation = g;
      return this;
    }

    public Builder checkpointLsn(long lsn) {
      checkpointLsn = lsn;
      return this;
    }

    public Builder catalog(byte[] c) {
      catalog = c.clone();
      return this;
    }

    public long hwm(int area) {
      return area < hwm.length ? hwm[area] : 0;
    }

    public Builder hwm(int area, long pages) {
      if (sharedHwm || area >= hwm.length) {
        hwm = Arrays.copyOf(hwm, Math.max(hwm.length, area + 1));
        sharedHwm = false;
      }
      hwm[area] = pages;
      return this;
    }

    public String areaName(int area) {
      return area < areaNames.length ? areaNames[area] : null;
    }

    public int areaSlots() {
      return Math.max(hwm.length, areaNames.length);
    }

    /** Declares an area; its high-water mark starts at 1 (page 0 is the area header). */
    public Builder area(int area, String name) {
      areaNames = Arrays.copyOf(areaNames, Math.max(areaNames.length, area + 1));
      areaNames[area] = name;
      if (hwm(area) == 0) {
        hwm(area, 1);
      }
      return this;
    }

    public TableState table(int id) {
      return tables.getOrDefault(id, TableState.EMPTY);
    }

    public Builder table(int id, TableState t) {
      if (sharedTables) {
        tables = new TreeMap<>(tables);
        sharedTables = false;
      }
      if (t == null) {
        tables.remove(id);
      } else {
        tables.put(id, t);
      }
      return this;
    }

    public IndexState index(int id) {
      return indexes.get(id);
    }

    public Builder index(int id, IndexState s) {
      if (sharedIndexes) {
        indexes = new TreeMap<>(indexes);
        sharedIndexes = false;
      }
      if (s == null) {
        indexes.remove(id);
      } else {
        indexes.put(id, s);
      }
      return this;
    }

    public Builder resume(String key, byte[] value) {
      if (sharedResume) {
        resume = new TreeMap<>(resume);
        sharedResume = false;
      }
      if (value == null) {
        resume.remove(key);
      } else {
        resume.put(key, value.clone());
      }
      return this;
    }

    public MetaState build() {
      sharedHwm = sharedTables = sharedIndexes = sharedResume = true;
      return new MetaState(this);
    }
  }
}
