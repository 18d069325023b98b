package dev.idxkit.jmh.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PassStateTest {
  @Test
  void roundTripsEveryField() {
    PassState s = new PassState(new int[] {1, 2, 4}, 0x1234_5678_9ABCL);
    s.config = 2;
    s.phase = 1;
    s.resumed = true;
    s.next = new long[] {10, 20, 30, 40};
    s.objects = 5;
    s.lookups = 4;
    s.nanos = 3;
    s.done.add(new PassState.Measurement(1, 0, false, 100, 90, 1_000_000));
    s.done.add(new PassState.Measurement(2, 1, true, 200, 180, 2_000_000));
    s.reference = new Tally();
    s.reference.file(3, 4, 5, 1 << 20);
    s.reference.links = 7;
    s.tally.file(499, 49, 199, 12345);
    s.tally.directories = 2;

    PassState t = PassState.decode(s.encode());
    assertThat(t.readers).containsExactly(1, 2, 4);
    assertThat(t.fingerprint).isEqualTo(0x1234_5678_9ABCL);
    assertThat(t.config).isEqualTo(2);
    assertThat(t.phase).isEqualTo(1);
    assertThat(t.resumed).isTrue();
    assertThat(t.next).containsExactly(10, 20, 30, 40);
    assertThat(new long[] {t.objects, t.lookups, t.nanos}).containsExactly(5, 4, 3);
    assertThat(t.done).isEqualTo(s.done);
    assertThat(t.reference).isEqualTo(s.reference);
    assertThat(t.tally).isEqualTo(s.tally).isNotEqualTo(s.reference);
    assertThat(t.matches(new int[] {1, 2, 4}, 0x1234_5678_9ABCL)).isTrue();
    assertThat(t.matches(new int[] {1, 2}, 0x1234_5678_9ABCL)).isFalse();
  }

  @Test
  void anotherFormatIsRefusedByName() {
    PassState s = new PassState(new int[] {1}, 1);
    s.next = new long[] {0};
    byte[] b = s.encode();
    b[5] = 9; // format version 9
    assertThatThrownBy(() -> PassState.decode(b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resume point bench:accounting")
        .hasMessageContaining("version 9 (expected: 41434350 version 1)");
  }
}
