package dev.idxkit.jmh;

/** The JVM flags of the parent pom ({@code chronicle.jvm.args}), as constants for {@code @Fork}. */
public final class JvmFlags {
  public static final String F1 = "${jvm.flag.1}";
  public static final String F2 = "${jvm.flag.2}";
  public static final String F3 = "${jvm.flag.3}";
  public static final String F4 = "${jvm.flag.4}";
  public static final String F5 = "${jvm.flag.5}";
  public static final String F6 = "${jvm.flag.6}";
  public static final String F7 = "${jvm.flag.7}";

  private JvmFlags() {}
}
