package dev.idxkit.core.schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The TPC-H schema as DDL ({@code tpch.sql} next to this class): the eight tables with their
 * primary keys, and the secondary indexes on orders and lineitem. The loader's generator, the CLI
 * demo and the benchmarks all start from it.
 */
public final class TpchDdl {
  /** The name errors and {@link DdlParser#apply} use for the script. */
  public static final String SOURCE = "tpch.sql";

  private TpchDdl() {}

  /** The DDL text. */
  public static String text() {
    try (InputStream in = TpchDdl.class.getResourceAsStream(SOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + SOURCE + " missing next to " + TpchDdl.class);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource " + SOURCE, e);
    }
  }

  /** The TPC-H schema applied to an empty one. */
  public static Schema schema() {
    return DdlParser.apply(Schema.empty(), text(), SOURCE);
  }
}
