package dev.idxkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code idxkit --version}: the version Maven recorded in the jar, and the Java running it. */
final class VersionProvider implements IVersionProvider {
  private static final String POM_PROPERTIES =
      "/META-INF/maven/dev.idxkit/idxkit-cli/pom.properties";

  @Override
  public String[] getVersion() {
    String version = "(development build)";
    try (InputStream in = VersionProvider.class.getResourceAsStream(POM_PROPERTIES)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        version = p.getProperty("version", version);
      }
    } catch (IOException e) {
      // Only the version line suffers; keep the fallback.
    }
    return new String[] {
      "idxkit " + version,
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
