package dev.idxkit.core.internal;

import dev.idxkit.core.IdxkitException;

/**
 * The JVM flags idxkit needs, checked before a database is created or opened: Chronicle Bytes maps
 * files through JDK internals ({@code sun.nio.ch.FileChannelImpl.map0}, reflection on {@code
 * java.lang.reflect}), which Java 17 and later close to code on the class path unless the command
 * line opens them. Without this check the first mapping fails deep inside Chronicle with a {@code
 * ClassCastException} wrapping an {@code IllegalAccessError}, which names neither the cause nor the
 * fix; with it, the first call fails with one line that names the flags.
 */
public final class JvmFlags {
  /** What to add to the {@code java} command line (JDK 24+ also wants the two in the message). */
  public static final String REQUIRED =
      "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED"
          + " --add-opens=java.base/java.lang.reflect=ALL-UNNAMED"
          + " --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED"
          + " --add-opens=java.base/java.nio=ALL-UNNAMED";

  private JvmFlags() {}

  /**
   * Throws, naming the flags, when the JDK internals Chronicle Bytes maps files with are closed.
   */
  public static void check() {
    Module base = Object.class.getModule();
    Module self = JvmFlags.class.getModule();
    if (!base.isExported("sun.nio.ch", self) || !base.isOpen("java.lang.reflect", self)) {
      throw new IdxkitException(
          "idxkit needs JVM flags to map its files; start java with: "
              + REQUIRED
              + " (and on JDK 24+ --enable-native-access=ALL-UNNAMED"
              + " --sun-misc-unsafe-memory-access=allow)");
    }
  }
}
