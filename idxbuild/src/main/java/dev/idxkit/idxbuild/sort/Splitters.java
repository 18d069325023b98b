package dev.idxkit.idxbuild.sort;

import dev.idxkit.core.spi.Keys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Chooses key boundaries that cut one big sort group into ranges of about equal entry counts, so
 * its final merge can run on several threads: range {@code i} is {@code [b(i-1), b(i))} with open
 * ends, merged on its own by opening every {@link RunReader} and {@link EntryBuffer#source(byte[],
 * byte[])} on that range. The ranges are disjoint, ordered, and together hold every entry.
 *
 * <p>Steps: weighted samples are taken without reading any file: from each run's sparse index, the
 * first entry of every block weighted by the block's entry count; from each sorted in-memory
 * buffer, every {@code s}-th entry weighted {@code s} ({@value #SAMPLES_PER_PART} samples per
 * buffer for each part wanted, at most {@value #BUFFER_SAMPLES}). The samples are sorted; equal
 * keys are pooled. Walking them in order, the entries below a sample key are estimated as the
 * weight of the samples before it, and for each target {@code total × i / parts} the distinct
 * sample key whose estimate is closest becomes a boundary.
 *
 * <p>Precision: a run's entries below a key are known to within one block, so a range is off by at
 * most one block per run (plus {@code s} per buffer) from its target. The buffers' steps add up to
 * at most {@code 1 / }{@value #SAMPLES_PER_PART} of a range, whatever their number: finer sampling
 * only made the split slower (sixteen buffers of lineitem SF 1's primary key at 4,096 samples each:
 * 3-12 ms before the range threads could start, on a 0.2 s build). When there are fewer distinct
 * sample keys than parts, fewer boundaries come back (never a repeated or empty-left one).
 *
 * <p>Memory: the samples, one small object and one key copy per block of every run.
 */
public final class Splitters {
  static final int BUFFER_SAMPLES = 4096;
  static final int SAMPLES_PER_PART = 64;

  private Splitters() {}

  private record Sample(byte[] key, long weight, int source) {}

  /**
   * Up to {@code parts - 1} strictly increasing boundary entries.
   *
   * @param runs the group's runs
   * @param inMemory the group's sorted in-memory buffers
   * @param parts how many ranges are wanted, at least 1
   */
  public static List<byte[]> split(List<Run> runs, List<EntryBuffer> inMemory, int parts) {
    if (parts < 1) {
      throw new IllegalArgumentException("parts : " + parts + " (expected: >= 1)");
    }
    List<byte[]> out = new ArrayList<>(parts - 1);
    if (parts == 1) {
      return out;
    }
    List<Sample> samples = new ArrayList<>();
    long total = 0;
    int source = 0;
    for (Run r : runs) {
      for (int b = 0; b < r.blocks(); b++) {
        samples.add(new Sample(r.blockFirstEntry(b), r.blockEntryCount(b), source));
      }
      total += r.entries();
      source++;
    }
    for (EntryBuffer buf : inMemory) {
      if (!buf.isSorted()) {
        throw new IllegalArgumentException("in-memory buffer is not sorted: sort() it first");
      }
      int n = buf.size();
      int step = bufferStep(n, parts);
      for (int i = 0; i < n; i += step) {
        samples.add(new Sample(buf.entryAt(i), Math.min(step, n - i), source));
      }
      total += n;
      source++;
    }
    if (samples.isEmpty()) {
      return out;
    }
    samples.sort((a, b) -> Keys.compare(a.key(), b.key()));

    // Distinct keys with the estimated number of entries below each: the samples before the key,
    // but the last one of each source only by half, since its block straddles the key.
    List<byte[]> keys = new ArrayList<>();
    List<Long> below = new ArrayList<>();
    long[] lastWeight = new long[source];
    long cum = 0;
    long straddling = 0;
    for (int i = 0; i < samples.size(); ) {
      byte[] key = samples.get(i).key();
      keys.add(key);
      below.add(cum - straddling / 2);
      while (i < samples.size() && Arrays.equals(samples.get(i).key(), key)) {
        Sample sm = samples.get(i);
        cum += sm.weight();
        straddling += sm.weight() - lastWeight[sm.source()];
        lastWeight[sm.source()] = sm.weight();
        i++;
      }
    }

    int k = 1; // skip the smallest key: a boundary there leaves the first range empty
    for (int part = 1; part < parts && k < keys.size(); part++) {
      long target = total * part / parts;
      while (k + 1 < keys.size() && below.get(k + 1) <= target) {
        k++;
      }
      // keys[k] is the last key at or below the target; the next one may be closer.
      int pick = k;
      if (k + 1 < keys.size()
          && below.get(k) < target
          && below.get(k + 1) - target < target - below.get(k)) {
        pick = k + 1;
      }
      out.add(keys.get(pick).clone());
      k = pick + 1;
    }
    return out;
  }

  /**
   * Every how many entries a sorted buffer of {@code size} entries is sampled for {@code parts}.
   */
  static int bufferStep(int size, int parts) {
    int samples = (int) Math.min(BUFFER_SAMPLES, (long) SAMPLES_PER_PART * parts);
    return Math.max(1, (size + samples - 1) / samples);
  }
}
