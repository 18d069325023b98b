package dev.idxkit.loader.input;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Utf8} accepts exactly what the JDK's strict UTF-8 decoder accepts. */
class Utf8Test {
  static boolean jdkAccepts(byte[] b) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  @Test
  void agreesWithTheJdkDecoderOnRandomBytes() {
    long seed = Seeds.seed();
    SplittableRandom random = Seeds.random(seed);
    for (int i = 0; i < 50_000; i++) {
      byte[] b = new byte[1 + random.nextInt(6)];
      for (int k = 0; k < b.length; k++) {
        // Mostly bytes around the interesting boundaries.
        b[k] = (byte) (random.nextBoolean() ? random.nextInt(256) : 0x80 + random.nextInt(0x80));
      }
      assertThat(Utf8.firstInvalid(b, 0, b.length) < 0)
          .as(
              "bytes %s; %s",
              java.util.HexFormat.of().formatHex(b), Seeds.reproduce(seed, getClass()))
          .isEqualTo(jdkAccepts(b));
    }
  }

  @Test
  void classifiesTheEdgeCases() {
    assertThat(Utf8.sequenceLength(bytes(0xC2, 0x80), 0, 2)).isEqualTo(2);
    assertThat(Utf8.sequenceLength(bytes(0xC1, 0xBF), 0, 2)).isZero(); // overlong
    assertThat(Utf8.sequenceLength(bytes(0xE0, 0x9F, 0xBF), 0, 3)).isZero(); // overlong
    assertThat(Utf8.sequenceLength(bytes(0xED, 0xA0, 0x80), 0, 3)).isZero(); // surrogate
    assertThat(Utf8.sequenceLength(bytes(0xEF, 0xBF, 0xBF), 0, 3)).isEqualTo(3);
    assertThat(Utf8.sequenceLength(bytes(0xF4, 0x8F, 0xBF, 0xBF), 0, 4)).isEqualTo(4); // U+10FFFF
    assertThat(Utf8.sequenceLength(bytes(0xF4, 0x90, 0x80, 0x80), 0, 4)).isZero(); // > U+10FFFF
    assertThat(Utf8.sequenceLength(bytes(0xF0, 0x9F, 0x98), 0, 3)).isEqualTo(-1); // cut off
    assertThat(Utf8.sequenceLength(bytes(0xF0, 0x9F, 0x41), 0, 3)).isZero();
    assertThat(Utf8.display(bytes('a', 0xC3, 0xA9, 0xFF, 'b'), 0, 5)).isEqualTo("aé\\xffb");
  }

  static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }
}
