package dev.idxkit.core.schema;

/**
 * A storage area (SQL {@code TABLESPACE}): one page file in the database directory. Ids fit in a
 * byte because page headers carry them.
 */
public record AreaDef(int id, String name) {
  public static final int MAX_AREAS = 255;
  public static final String DATA = "data";
  public static final String INDEX = "index";
}
