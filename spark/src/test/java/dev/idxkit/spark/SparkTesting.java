package dev.idxkit.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.spark.sql.SparkSession;

/**
 * Spark sessions for tests, bound to 127.0.0.1 only: {@code local[2,2]} (two task threads, a failed
 * task retried once) and {@code local-cluster[2,1,1024]} (a master, two workers and two executor
 * JVMs on loopback).
 *
 * <p>local-cluster starts executors from a Spark home, which Maven does not have; this makes one
 * under {@code target/spark-home} from the test class path: {@code jars/} with a link to every jar,
 * a {@code RELEASE} file, and {@code assembly/target/scala-2.13/jars} pointing at {@code jars/}.
 * Surefire sets {@code SPARK_HOME} to it, {@code SPARK_SCALA_VERSION=2.13} and {@code
 * SPARK_LOCAL_IP=127.0.0.1}; the executors get the test's class path (module classes are
 * directories, not jars) and the JVM options Spark and Chronicle Bytes need on Java 17.
 */
final class SparkTesting {
  private SparkTesting() {}

  static SparkSession local(String app) {
    return base(app).master("local[2,2]").getOrCreate();
  }

  static SparkSession localCluster(String app) {
    Path home = Path.of(System.getProperty("idxkit.spark.home", "target/spark-home"));
    makeSparkHome(home);
    System.setProperty("spark.test.home", home.toString());
    return base(app)
        .master("local-cluster[2,1,1024]")
        .config("spark.test.home", home.toString())
        .config("spark.executor.extraClassPath", System.getProperty("java.class.path"))
        .config("spark.executor.extraJavaOptions", System.getProperty("idxkit.spark.jvm.args", ""))
        .config("spark.worker.ui.port", "0")
        .config("spark.master.ui.port", "0")
        .getOrCreate();
  }

  private static SparkSession.Builder base(String app) {
    return SparkSession.builder()
        .appName(app)
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.default.parallelism", "4");
  }

  private static void makeSparkHome(Path home) {
    try {
      Path jars = home.resolve("jars");
      Files.createDirectories(jars);
      for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
        Path p = Path.of(entry);
        if (entry.endsWith(".jar") && Files.isRegularFile(p)) {
          Path link = jars.resolve(p.getFileName());
          if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(link, p.toAbsolutePath());
          }
        }
      }
      Files.writeString(home.resolve("RELEASE"), "Spark (test home made by idxkit's tests)\n");
      Path assembly = home.resolve("assembly/target/scala-2.13");
      Files.createDirectories(assembly);
      Path link = assembly.resolve("jars");
      if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        Files.createSymbolicLink(link, jars.toAbsolutePath());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the test Spark home " + home, e);
    }
  }

  static String[] listing(Path dir) {
    try (var s = Files.list(dir)) {
      String[] names = s.map(p -> p.getFileName().toString()).sorted().toArray(String[]::new);
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String describe(String[] names) {
    return Arrays.toString(names);
  }
}
