package dev.idxkit.core.internal;

import dev.idxkit.core.Database;
import dev.idxkit.core.internal.txn.Store;
import java.util.function.Function;

/**
 * The one way from a {@link Database} (API) to its {@link Store} (internal), for core's SPI ({@link
 * dev.idxkit.core.spi.Engine}). {@code Database} registers the accessor when its class is
 * initialized, so the store needs no public getter on the API type (the pattern of the JDK's {@code
 * SharedSecrets}).
 */
public final class Internals {
  private static volatile Function<Database, Store> stores;

  private Internals() {}

  /** Called once, from {@code Database}'s static initializer. */
  public static void register(Function<Database, Store> accessor) {
    if (stores != null) {
      throw new IllegalStateException("Internals: the store accessor is already registered");
    }
    stores = accessor;
  }

  public static Store store(Database db) {
    Function<Database, Store> s = stores;
    if (s == null) {
      throw new IllegalStateException("Internals: Database has not registered its store accessor");
    }
    return s.apply(db);
  }
}
