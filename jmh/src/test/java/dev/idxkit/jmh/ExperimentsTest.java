package dev.idxkit.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * experiments.txt, the one list of {@code idxkit bench} experiments, against the classes of this
 * module: every listed main class exists and runs, and every experiment main class is listed.
 */
class ExperimentsTest {
  /** The packages that hold experiments: a class with a main here is one. */
  static final List<String> EXPERIMENT_PACKAGES =
      List.of("dev.idxkit.jmh.experiments", "dev.idxkit.jmh.peers");

  @Test
  void experimentsHaveUniqueNamesAndRunnableMainClasses() throws Exception {
    List<String> names = Experiments.ALL.stream().map(Experiments.Experiment::name).toList();
    assertThat(names)
        .doesNotHaveDuplicates()
        .containsExactly("io", "growth", "accounting", "durability", "compare", "idxbuild", "load");
    for (Experiments.Experiment e : Experiments.ALL) {
      assertThat(isMainClass(load(e.mainClass()))).as(e.name()).isTrue();
      assertThat(e.description()).as(e.name()).isNotBlank().doesNotContain("\t");
    }
    assertThat(Experiments.named("io")).isPresent();
    assertThat(Experiments.named("nope")).isEmpty();
  }

  @Test
  void theListHoldsExactlyTheExperimentMainClassesOfThisModule() throws Exception {
    Path classes =
        Path.of(Experiments.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Set<String> found = new TreeSet<>();
    for (String pkg : EXPERIMENT_PACKAGES) {
      Path dir = classes.resolve(pkg.replace('.', '/'));
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.toList()) {
          String file = f.getFileName().toString();
          if (file.endsWith(".class") && !file.contains("$")) {
            String name = pkg + "." + file.substring(0, file.length() - ".class".length());
            if (isMainClass(load(name))) {
              found.add(name);
            }
          }
        }
      }
    }
    Set<String> listed = new TreeSet<>();
    Experiments.ALL.forEach(e -> listed.add(e.mainClass()));
    assertThat(found)
        .as("classes with a main in %s vs %s", EXPERIMENT_PACKAGES, Experiments.RESOURCE)
        .isEqualTo(listed);
  }

  /** Loads without initializing: a peer's static setup (drivers, native libraries) need not run. */
  private static Class<?> load(String name) throws ClassNotFoundException {
    return Class.forName(name, false, ExperimentsTest.class.getClassLoader());
  }

  private static boolean isMainClass(Class<?> c) {
    try {
      Method main = c.getMethod("main", String[].class);
      return Modifier.isStatic(main.getModifiers()) && main.getReturnType() == void.class;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }
}
