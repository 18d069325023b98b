package dev.idxkit.jmh.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AccountingDataTest {
  @Test
  void feistelIsAPermutationForAnySize() {
    long seed = Seeds.seed();
    for (long size : new long[] {1, 2, 3, 7, 1000, 4097, 65_536}) {
      AccountingData.Feistel f = new AccountingData.Feistel(size, seed);
      BitSet seen = new BitSet();
      for (long x = 0; x < size; x++) {
        long y = f.apply(x);
        assertThat(y).as(Seeds.reproduce(seed, getClass())).isBetween(0L, size - 1);
        assertThat(seen.get((int) y))
            .as("%d taken twice; %s", y, Seeds.reproduce(seed, getClass()))
            .isFalse();
        seen.set((int) y);
      }
    }
  }

  @Test
  void bitfileIdsAreVersion6TimeOrderedInTheBurstAndAllDistinct() {
    long seed = Seeds.seed();
    AccountingData d = new AccountingData(5000, 1500, seed);
    Set<String> ids = new HashSet<>();
    byte[] previous = null;
    for (long j = 0; j < d.objects; j++) {
      byte[] id = d.bitfileId(j);
      assertThat(id).hasSize(16);
      assertThat((id[6] & 0xF0) >>> 4).as("version").isEqualTo(6);
      assertThat((id[8] & 0xC0) >>> 6).as("variant").isEqualTo(2);
      // time first: the 60-bit timestamp reads back from bytes 0-7
      long msb = 0;
      for (int k = 0; k < 8; k++) {
        msb = msb << 8 | (id[k] & 0xFF);
      }
      long ts = (msb >>> 16) << 12 | (msb & 0xFFF);
      assertThat(ts).isEqualTo(d.timestamp(j));
      if (j < d.clustered && previous != null) {
        assertThat(Arrays.compareUnsigned(previous, id))
            .as("burst ids ascend at %d", j)
            .isNegative();
      }
      previous = id;
      assertThat(ids.add(Arrays.toString(id)))
          .as("duplicate id at %d; %s", j, Seeds.reproduce(seed, getClass()))
          .isTrue();
    }
    // the burst spans well under a second; the rest spreads over the five years
    assertThat(d.timestamp(d.clustered - 1) - d.timestamp(0)).isLessThan(10_000_000L);
    assertThat(AccountingData.time(d.timestamp(d.objects - 1)))
        .isAfter(LocalDateTime.of(2023, 6, 1, 0, 0));
  }

  @Test
  void everyFileOwnsADistinctBitfileOfItsSize() {
    long seed = Seeds.seed();
    AccountingData d = new AccountingData(3000, 900, seed);
    BitSet used = new BitSet();
    for (long i = 0; i < d.objects; i++) {
      Object[] o = d.object(i);
      assertThat(o[0]).isEqualTo(i + 1);
      long b = d.bitfileOf(i);
      assertThat(used.get((int) b))
          .as("bitfile %d used twice; %s", b, Seeds.reproduce(seed, getClass()))
          .isFalse();
      used.set((int) b);
      if (o[8].equals("f")) {
        assertThat((byte[]) o[9]).isEqualTo(d.bitfileId(b));
        assertThat(o[4]).isEqualTo(d.bitfileBytes(b));
        assertThat(d.bitfile(b)[2]).isEqualTo(o[4]);
      } else {
        assertThat(o[9]).isNull();
      }
      assertThat(((LocalDateTime) o[6]).getNano() % 1000).as("whole microseconds").isZero();
      assertThat(d.bitfileOf(i))
          .as("i < clustered keeps its place")
          .isEqualTo(i < d.clustered ? i : b);
    }
    assertThat(used.cardinality()).isEqualTo(3000);
  }
}
