package dev.idxkit.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rings of core and the direction of the modules, enforced (see DESIGN "Modules" and the
 * README's "Modules").
 *
 * <p>What it forbids, in the main code of each module (tests, jmh and src-test may use anything):
 *
 * <ul>
 *   <li>cli (the command line and the server) uses core's API only: nothing from {@code
 *       dev.idxkit.core.spi} or {@code dev.idxkit.core.internal..};
 *   <li>idxbuild, loader and spark use the API and the SPI: nothing from {@code
 *       dev.idxkit.core.internal..};
 *   <li>arrows point one way: core knows no tool; idxbuild knows neither the loader nor the cli;
 *       the loader does not know the cli; nothing but jmh and src-test knows jmh.
 * </ul>
 *
 * <p>Two checks for each ring rule: ArchUnit over the compiled classes (catches any use, also
 * through a fully qualified name) and a scan of the sources' import lines (catches an import that
 * is not used, which leaves no trace in bytecode).
 */
class ArchitectureTest {
  private static final String INTERNAL = "dev.idxkit.core.internal..";
  private static final String SPI = "dev.idxkit.core.spi..";
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // core's test jar (Seeds, CrashCopy, ...) is test code too
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.idxkit");
    // fail loudly if the classpath did not give the modules' classes (the rules would pass on
    // nothing)
    for (String pkg : List.of("dev.idxkit.cli", "dev.idxkit.loader", "dev.idxkit.idxbuild")) {
      assertThat(classes.stream().anyMatch(c -> c.getPackageName().startsWith(pkg)))
          .as("classes of %s imported", pkg)
          .isTrue();
    }
  }

  @Test
  void theCliUsesOnlyTheApi() {
    noClasses()
        .that()
        .resideInAPackage("dev.idxkit.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(INTERNAL, SPI)
        .because("the command line and the server are shells over core's API")
        .check(classes);
  }

  @Test
  void theBulkToolsUseTheApiAndTheSpi() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.idxkit.idxbuild..", "dev.idxkit.loader..", "dev.idxkit.spark..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage(INTERNAL)
        .because("the bulk paths reach the engine through dev.idxkit.core.spi only")
        .check(classes);
  }

  @Test
  void modulesPointOneWay() {
    noClasses()
        .that()
        .resideInAPackage("dev.idxkit.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.idxkit.idxbuild..", "dev.idxkit.loader..", "dev.idxkit.cli..", "dev.idxkit.jmh..")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("dev.idxkit.idxbuild..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.idxkit.loader..", "dev.idxkit.cli..", "dev.idxkit.jmh..")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("dev.idxkit.loader..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.idxkit.cli..", "dev.idxkit.jmh..")
        .check(classes);
  }

  @Test
  void noSourceImportsPastItsRing() {
    List<String> found = new ArrayList<>();
    scan("cli", Pattern.compile("dev\\.idxkit\\.core\\.(internal|spi)\\b"), found);
    for (String module : List.of("idxbuild", "loader", "spark")) {
      scan(module, Pattern.compile("dev\\.idxkit\\.core\\.internal\\b"), found);
    }
    assertThat(found).as("imports past the module's ring").isEmpty();
  }

  /**
   * Lines of {@code module}'s main sources that import (or name) a package {@code ring} matches.
   */
  private static void scan(String module, Pattern ring, List<String> found) {
    Path root = repositoryRoot().resolve(module).resolve("src/main/java");
    if (!Files.isDirectory(root)) {
      return; // a module that does not exist in this checkout
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        List<String> lines = Files.readAllLines(f);
        for (int i = 0; i < lines.size(); i++) {
          Matcher m = ring.matcher(lines.get(i));
          if (m.find() && !lines.get(i).trim().startsWith("*")) {
            found.add(repositoryRoot().relativize(f) + ":" + (i + 1) + ": " + lines.get(i).trim());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path repositoryRoot() {
    Path here = Path.of("").toAbsolutePath();
    for (Path p = here; p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("core/src/main/java"))) {
        return p;
      }
    }
    throw new IllegalStateException("no idxkit checkout above " + here);
  }
}
