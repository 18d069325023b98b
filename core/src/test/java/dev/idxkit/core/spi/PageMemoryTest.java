package dev.idxkit.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/**
 * A {@link Page} over a Java array (read and written with array accesses) behaves exactly as one
 * over direct memory (read and written through Chronicle Bytes): the same random operations on both
 * leave the same bytes and return the same values, checksums and comparisons. A page at an offset
 * inside a larger array or buffer is covered too.
 */
class PageMemoryTest {
  @Test
  void anArrayPageIsADirectPage() {
    long seed = Seeds.seed();
    SplittableRandom r = Seeds.random(seed);
    String why = Seeds.reproduce(seed, getClass());
    int size = 8192;
    for (int round = 0; round < 20; round++) {
      int base = r.nextBoolean() ? 0 : size * (1 + r.nextInt(3));
      byte[] backing = new byte[base + size + r.nextInt(2) * size];
      Page heap = new Page(BytesStore.wrap(backing), base, size);
      ByteBuffer direct = ByteBuffer.allocateDirect(base + size);
      Page native_ = new Page(BytesStore.wrap(direct), base, size);
      Page other = new Page(BytesStore.wrap(new byte[size]), 0, size);
      for (int op = 0; op < 2000; op++) {
        int off = r.nextInt(size - 8);
        switch (r.nextInt(12)) {
          case 0 -> {
            int v = r.nextInt(256);
            heap.putU8(off, v);
            native_.putU8(off, v);
          }
          case 1 -> {
            int v = r.nextInt(1 << 16);
            heap.putU16(off, v);
            native_.putU16(off, v);
          }
          case 2 -> {
            int v = r.nextInt();
            heap.putInt(off, v);
            native_.putInt(off, v);
          }
          case 3 -> {
            long v = r.nextLong();
            heap.putLong(off, v);
            native_.putLong(off, v);
          }
          case 4 -> {
            byte[] src = new byte[1 + r.nextInt(300)];
            r.nextBytes(src);
            int len = Math.min(src.length, size - off);
            heap.putBytes(off, src, 0, len);
            native_.putBytes(off, src, 0, len);
          }
          case 5 -> {
            int len = r.nextInt(size - off);
            heap.zero(off, len);
            native_.zero(off, len);
          }
          case 6 -> {
            int to = r.nextInt(size - 8);
            int len = r.nextInt(size - Math.max(off, to));
            heap.move(off, to, len);
            native_.move(off, to, len);
          }
          case 7 -> {
            int len = r.nextInt(size - off);
            byte[] key = heap.getBytes(off, len);
            if (len > 0 && r.nextBoolean()) {
              key[r.nextInt(len)] += (byte) (1 + r.nextInt(255));
            }
            int klen = r.nextInt(key.length + 1);
            assertThat(Integer.signum(heap.compare(off, len, key, 0, klen)))
                .as(why)
                .isEqualTo(Integer.signum(native_.compare(off, len, key, 0, klen)));
          }
          case 8 -> {
            int len = r.nextInt(size - off);
            int to = r.nextInt(size - len + 1);
            other.putLong(0, r.nextLong());
            heap.copyFrom(other, off, to, len);
            native_.copyFrom(other, off, to, len);
          }
          case 9 -> assertThat(heap.getU16(off)).as(why).isEqualTo(native_.getU16(off));
          case 10 -> assertThat(heap.getLong(off)).as(why).isEqualTo(native_.getLong(off));
          default -> {
            heap.seal(op);
            native_.seal(op);
          }
        }
        assertThat(heap.getInt(off)).as(why).isEqualTo(native_.getInt(off));
        assertThat(heap.getU8(off)).as(why).isEqualTo(native_.getU8(off));
      }
      assertThat(heap.getBytes(0, size)).as(why).isEqualTo(native_.getBytes(0, size));
      assertThat(heap.computeChecksum()).as(why).isEqualTo(native_.computeChecksum());
    }
  }
}
