package dev.idxkit.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentsTest {
  @Test
  void experimentsHaveUniqueNamesAndRunnableMainClasses() throws Exception {
    List<String> names = Experiments.ALL.stream().map(Experiments.Experiment::name).toList();
    assertThat(names).doesNotHaveDuplicates().contains("io", "growth", "accounting", "durability");
    for (Experiments.Experiment e : Experiments.ALL) {
      var main = Class.forName(e.mainClass()).getMethod("main", String[].class);
      assertThat(java.lang.reflect.Modifier.isStatic(main.getModifiers())).as(e.name()).isTrue();
      assertThat(e.description()).as(e.name()).isNotBlank().doesNotContain("\t");
    }
    assertThat(Experiments.named("io")).isPresent();
    assertThat(Experiments.named("nope")).isEmpty();
  }
}
