package dev.idxkit.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.idxkit.core.testing.Seeds;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class SchemaCodecTest {
  private static final int FUZZ_CASES = 4000;

  @Test
  void roundTripsEmptyAndTpch() {
    for (Schema s : List.of(Schema.empty(), TpchDdl.schema())) {
      byte[] bytes = SchemaCodec.encode(s);
      assertThat(SchemaCodec.decode(bytes)).isEqualTo(s);
    }
  }

  @Test
  void emptySchemaLayoutIsAsDrawn() {
    byte[] b = SchemaCodec.encode(Schema.empty());
    ByteBuffer buf = ByteBuffer.wrap(b);
    assertThat(b).hasSize(10 + 1 + (2 + 4) + (2 + 5) + 2 + 2 + 4);
    assertThat(buf.getInt(0)).isEqualTo(0x49585343);
    assertThat(buf.getShort(4)).isEqualTo((short) SchemaCodec.FORMAT_VERSION);
    assertThat(buf.getInt(6)).isEqualTo(b.length);
    assertThat(b[10]).isEqualTo((byte) 2);
    assertThat(new String(b, 13, 4, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("data");
  }

  @Test
  void roundTripsRandomSchemas() {
    long seed = Seeds.seed();
    SplittableRandom random = Seeds.random(seed);
    try {
      for (int i = 0; i < 300; i++) {
        Schema s = RandomSchemas.generate(random);
        if (random.nextInt(4) == 0) {
          s = s.withArea("unused_" + i);
        }
        assertThat(SchemaCodec.decode(SchemaCodec.encode(s))).isEqualTo(s);
      }
    } catch (AssertionError e) {
      throw new AssertionError(Seeds.reproduce(seed, getClass()), e);
    }
  }

  @Test
  void damageIsReportedPrecisely() {
    byte[] good = SchemaCodec.encode(TpchDdl.schema());

    byte[] magic = good.clone();
    magic[0] = 'X';
    assertThatThrownBy(() -> SchemaCodec.decode(magic))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("schema: magic 0x58585343 (expected: 0x49585343 \"IXSC\")");

    byte[] version = good.clone();
    version[5] = 9;
    assertThatThrownBy(() -> SchemaCodec.decode(version))
        .hasMessage("schema: format version 9 (expected: 1)");

    byte[] truncated = Arrays.copyOf(good, good.length - 7);
    assertThatThrownBy(() -> SchemaCodec.decode(truncated))
        .hasMessage(
            "schema: "
                + truncated.length
                + " bytes but the header says "
                + good.length
                + " (truncated)");

    byte[] flipped = good.clone();
    flipped[40] ^= 0x10;
    assertThatThrownBy(() -> SchemaCodec.decode(flipped))
        .hasMessageStartingWith("schema: checksum mismatch (stored CRC32C 0x");

    assertThatThrownBy(() -> SchemaCodec.decode(new byte[3]))
        .hasMessage("schema: 3 bytes, too short for a schema (at least 21)");

    // Damage the checksum would catch, re-sealed so the structural checks must catch it.
    byte[] typeCode = good.clone();
    int firstColumnType = 10 + 1 + 6 + 7 + 2 + (2 + 6) + 1 + 2 + (2 + 11);
    typeCode[firstColumnType] = 99;
    assertThatThrownBy(() -> SchemaCodec.decode(reseal(typeCode)))
        .hasMessage(
            "schema: table 1 column 0 type code 99 (expected: 1..11) (at byte "
                + firstColumnType
                + ")");

    byte[] trailing = Arrays.copyOf(good, good.length + 2);
    System.arraycopy(good, good.length - 4, trailing, good.length - 2, 4);
    trailing[good.length - 4] = 0;
    trailing[good.length - 3] = 0;
    assertThatThrownBy(() -> SchemaCodec.decode(reseal(trailing)))
        .hasMessage(
            "schema: 2 bytes after the last index (expected: the checksum) (at byte "
                + (good.length - 4)
                + ")");
  }

  @Test
  void hugeLengthsFailWithoutAllocating() {
    byte[] good = SchemaCodec.encode(Schema.empty());
    byte[] b = good.clone();
    b[11] = (byte) 0xFF; // area 0 name length 0xFF04
    assertThatThrownBy(() -> SchemaCodec.decode(reseal(b)))
        .hasMessage("schema: area 0 name length 65284 (expected: 1..512) (at byte 11)");
    byte[] c = good.clone();
    c[24] = (byte) 0xFF; // table count 0xFF00; table 1 would start at the index count's 0x0000
    assertThatThrownBy(() -> SchemaCodec.decode(reseal(c)))
        .hasMessage("schema: table 1 name length 0 (expected: 1..512) (at byte 26)");
  }

  /**
   * Truncations, bit flips, byte overwrites, insertions and deletions of valid encodings: each
   * either decodes to a valid schema that encodes back to exactly the damaged bytes, or fails with
   * an IllegalArgumentException naming the problem. Half the cases fix up the length field and the
   * checksum, so the structural checks behind the checksum get exercised too.
   */
  @Test
  void fuzzedBytesDecodeToAValidSchemaOrFailCleanly() {
    long seed = Seeds.seed();
    SplittableRandom random = Seeds.random(seed);
    List<byte[]> bases = new ArrayList<>();
    bases.add(SchemaCodec.encode(TpchDdl.schema()));
    for (int i = 0; i < 20; i++) {
      bases.add(SchemaCodec.encode(RandomSchemas.generate(random)));
    }
    int decoded = 0;
    int failed = 0;
    for (int i = 0; i < FUZZ_CASES; i++) {
      byte[] base = bases.get(random.nextInt(bases.size()));
      boolean resealed = random.nextBoolean();
      byte[] damaged = damage(base, random);
      if (resealed && damaged.length >= 14) {
        damaged = reseal(damaged);
      }
      try {
        Schema s = SchemaCodec.decode(damaged);
        decoded++;
        if (!Arrays.equals(SchemaCodec.encode(s), damaged)) {
          fail(
              "case "
                  + i
                  + " decoded to a schema that encodes differently; "
                  + Seeds.reproduce(seed, getClass()));
        }
      } catch (IllegalArgumentException e) {
        failed++;
        if (!e.getMessage().startsWith("schema: ")) {
          fail(
              "case "
                  + i
                  + ": message "
                  + e.getMessage()
                  + "; "
                  + Seeds.reproduce(seed, getClass()));
        }
      } catch (RuntimeException | Error e) {
        throw new AssertionError(
            "case " + i + " failed with " + e + "; " + Seeds.reproduce(seed, getClass()), e);
      }
    }
    assertThat(decoded + failed).isEqualTo(FUZZ_CASES);
    assertThat(failed).as("most damage is detected").isGreaterThan(FUZZ_CASES / 2);
  }

  private static byte[] damage(byte[] base, SplittableRandom random) {
    byte[] b = base.clone();
    switch (random.nextInt(5)) {
      case 0 -> b = Arrays.copyOf(base, random.nextInt(base.length));
      case 1 -> {
        for (int k = random.nextInt(1, 4); k > 0; k--) {
          int bit = random.nextInt(b.length * 8);
          b[bit / 8] ^= (byte) (1 << (bit % 8));
        }
      }
      case 2 -> b[random.nextInt(b.length)] = (byte) random.nextInt(256);
      case 3 -> {
        int at = random.nextInt(b.length);
        b = new byte[base.length + 1];
        System.arraycopy(base, 0, b, 0, at);
        b[at] = (byte) random.nextInt(256);
        System.arraycopy(base, at, b, at + 1, base.length - at);
      }
      default -> {
        int at = random.nextInt(b.length);
        b = new byte[base.length - 1];
        System.arraycopy(base, 0, b, 0, at);
        System.arraycopy(base, at + 1, b, at, base.length - at - 1);
      }
    }
    return b;
  }

  /** Rewrites the length field and the checksum so the damage gets past them. */
  private static byte[] reseal(byte[] b) {
    byte[] out = b.clone();
    ByteBuffer buf = ByteBuffer.wrap(out);
    buf.putInt(6, out.length);
    CRC32C crc = new CRC32C();
    crc.update(out, 0, out.length - 4);
    buf.putInt(out.length - 4, (int) crc.getValue());
    return out;
  }
}
