package dev.idxkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The parent pom compiles string concatenation inline ({@code -XDstringConcat=inline}): each shape
 * of {@code "a" + b} bootstrapped through {@code StringConcatFactory} at run time cost a short
 * command start-up time (the README's issue 14, eighth pass). Nothing else fails if the option is
 * dropped, so this reads a class of this module that concatenates ({@link Rid#toString(long)}).
 */
class InlineConcatTest {
  @Test
  void concatenationIsCompiledToStringBuilderCallsNotInvokedynamic() throws IOException {
    String classFile;
    try (InputStream in = Rid.class.getResourceAsStream("Rid.class")) {
      assertThat(in).isNotNull();
      // The constant pool's names are modified UTF-8; ASCII names read the same as ISO-8859-1.
      classFile = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
    assertThat(classFile).contains("java/lang/StringBuilder");
    assertThat(classFile).doesNotContain("makeConcatWithConstants");
  }
}
