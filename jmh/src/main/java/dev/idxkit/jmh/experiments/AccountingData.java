package dev.idxkit.jmh.experiments;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The {@code accounting} experiment's data set: a file system's {@code objects} and the archive's
 * {@code bitfiles} they point to, every value a pure function of (seed, row number), so the loader
 * can generate chunks in parallel and a resumed pass sees the same rows.
 *
 * <pre>
 * objects  (id BIGINT PK, owner INT, grp INT, account INT, size BIGINT,
 *           atime, mtime, ctime TIMESTAMP, kind VARCHAR(1), bitfile VARBINARY(16))
 *   row i (0-based) has id i + 1; kind 'f' (85 %), 'd' (10 %) or 'l' (5 %); owner skewed
 *   (a few owners hold most files), group and account uniform; a file's bitfile is the id of
 *   bitfile b(i) and its size that bitfile's bytes; directories and links have no bitfile.
 *
 * bitfiles (id VARBINARY(16) PK, created TIMESTAMP, bytes BIGINT, cos INT, copies INT)
 *   row j is bitfile j, in creation order: j &lt; clustered were made in a burst of
 *   clustered x 700 ns (consecutive timestamps, one server), the rest spread evenly over
 *   2019-2023 by four servers.
 *
 * b(i) = i                                    for i &lt; clustered (the clustered phase)
 *      = clustered + P(i - clustered)         otherwise (P: a keyed Feistel permutation)
 * </pre>
 *
 * <h2>Bitfile ids: time-based UUIDs, time first (RFC 9562 version 6)</h2>
 *
 * <pre>
 *  0                   1                   2                   3
 * |           time_high (timestamp bits 59..28)                    |  bytes 0-3
 * |   time_mid (bits 27..12)      | ver=6 |  time_low (bits 11..0) |  bytes 4-7
 * |var=10|   clock_seq (14 bits)  |        node (48 bits) ...      |  bytes 8-15
 * </pre>
 *
 * The timestamp counts 100 ns since 1582-10-15 as in version 1, but most significant bits first, so
 * ids sort by creation time in the B+tree: the burst's ids are neighbours in a few leaves, and a
 * scan of the clustered phase's objects looks them up in key order; the random phase's lookups go
 * to ids of any time, in an order unrelated to the key.
 */
final class AccountingData {
  static final int OWNERS = 500;
  static final int GROUPS = 50;
  static final int ACCOUNTS = 200;

  /** 100 ns ticks from the UUID epoch (1582-10-15) to the Unix epoch. */
  static final long UUID_EPOCH_TICKS = 0x01B21DD213814000L;

  static final long BURST_START_TICKS = ticks(LocalDateTime.of(2021, 3, 1, 12, 0));
  static final long SPREAD_START_TICKS = ticks(LocalDateTime.of(2019, 1, 1, 0, 0));
  static final long SPREAD_END_TICKS = ticks(LocalDateTime.of(2024, 1, 1, 0, 0));
  static final long BURST_STEP_TICKS = 7;

  static final String DDL =
      "CREATE TABLE objects (id BIGINT PRIMARY KEY, owner INT, grp INT, account INT,"
          + " size BIGINT, atime TIMESTAMP, mtime TIMESTAMP, ctime TIMESTAMP, kind VARCHAR(1),"
          + " bitfile VARBINARY(16));"
          + "CREATE TABLE bitfiles (id VARBINARY(16) PRIMARY KEY, created TIMESTAMP,"
          + " bytes BIGINT, cos INT, copies INT);";

  final long objects;
  final long clustered;
  final long seed;
  private final Feistel permutation;
  private final long burstNode;
  private final int burstClockSeq;

  /**
   * @param objects rows of {@code objects} (and of {@code bitfiles})
   * @param clustered how many of them, from the start, are in the clustered phase
   */
  AccountingData(long objects, long clustered, long seed) {
    if (objects < 1 || clustered < 0 || clustered > objects) {
      throw new IllegalArgumentException(
          "objects : "
              + objects
              + ", clustered : "
              + clustered
              + " (expected: 0 <= clustered <= objects, objects >= 1)");
    }
    this.objects = objects;
    this.clustered = clustered;
    this.seed = seed;
    this.permutation = new Feistel(objects - clustered, mix(seed, 3, 0));
    SplittableRandom r = new SplittableRandom(mix(seed, 4, 0));
    this.burstNode = node(r, 0);
    this.burstClockSeq = r.nextInt(1 << 14);
  }

  /** What the rows depend on, for the loader's input identity and the pass's fingerprint. */
  String identity() {
    return String.format(
        Locale.ROOT,
        "accounting objects=%d clustered=%d seed=%d owners=%d groups=%d accounts=%d",
        objects,
        clustered,
        seed,
        OWNERS,
        GROUPS,
        ACCOUNTS);
  }

  /** Row {@code i} of {@code objects}, in column order. */
  Object[] object(long i) {
    SplittableRandom r = new SplittableRandom(mix(seed, 1, i));
    int k = r.nextInt(100);
    char kind = k < 85 ? 'f' : k < 95 ? 'd' : 'l';
    double u = r.nextDouble();
    int owner = (int) (OWNERS * u * u); // skewed: the low owner numbers hold most objects
    int group = r.nextInt(GROUPS);
    int account = r.nextInt(ACCOUNTS);
    long mtimeTicks = SPREAD_START_TICKS + r.nextLong(SPREAD_END_TICKS - SPREAD_START_TICKS);
    LocalDateTime mtime = time(mtimeTicks);
    LocalDateTime atime = mtime.plusSeconds(r.nextLong(90L * 86400));
    byte[] bitfile = null;
    long size;
    switch (kind) {
      case 'f' -> {
        long b = bitfileOf(i);
        bitfile = bitfileId(b);
        size = bitfileBytes(b);
      }
      case 'd' -> size = 4096;
      default -> size = 20 + r.nextInt(200);
    }
    return new Object[] {
      i + 1, owner, group, account, size, atime, mtime, mtime, String.valueOf(kind), bitfile
    };
  }

  /** Row {@code j} of {@code bitfiles}, in column order. */
  Object[] bitfile(long j) {
    SplittableRandom r = new SplittableRandom(mix(seed, 5, j));
    return new Object[] {
      bitfileId(j), time(timestamp(j)), bitfileBytes(j), 1 + r.nextInt(8), 1 + r.nextInt(2)
    };
  }

  /** The bitfile object {@code i} points to (if it is a file). */
  long bitfileOf(long i) {
    return i < clustered ? i : clustered + permutation.apply(i - clustered);
  }

  /** The bytes of bitfile {@code j}: 512 B to 16 GiB, log-uniform. */
  long bitfileBytes(long j) {
    SplittableRandom r = new SplittableRandom(mix(seed, 2, j));
    int e = 9 + r.nextInt(25);
    return (1L << e) + r.nextLong(1L << e);
  }

  /** The creation timestamp of bitfile {@code j}, in 100 ns ticks since 1582-10-15. */
  long timestamp(long j) {
    if (j < clustered) {
      return BURST_START_TICKS + j * BURST_STEP_TICKS;
    }
    long spread = objects - clustered;
    long step = (SPREAD_END_TICKS - SPREAD_START_TICKS) / spread;
    long jitter = new SplittableRandom(mix(seed, 6, j)).nextLong(Math.max(1, step));
    return SPREAD_START_TICKS + (j - clustered) * step + jitter;
  }

  /** The 16-byte id of bitfile {@code j}: the layout in the class comment. */
  byte[] bitfileId(long j) {
    long ts = timestamp(j);
    long node;
    int clockSeq;
    if (j < clustered) {
      node = burstNode;
      clockSeq = burstClockSeq;
    } else {
      SplittableRandom r = new SplittableRandom(mix(seed, 7, j));
      node = node(new SplittableRandom(mix(seed, 8, r.nextInt(4))), 1); // one of four servers
      clockSeq = r.nextInt(1 << 14);
    }
    long msb = ((ts >>> 12) << 16) | 0x6000L | (ts & 0xFFF);
    long lsb = ((0x8000L | clockSeq) << 48) | node;
    byte[] b = new byte[16];
    for (int k = 0; k < 8; k++) {
      b[k] = (byte) (msb >>> (56 - 8 * k));
      b[8 + k] = (byte) (lsb >>> (56 - 8 * k));
    }
    return b;
  }

  /** A 48-bit node id; {@code server} 0 is the burst's, 1 the spread servers' (bit 40 differs). */
  private static long node(SplittableRandom r, int server) {
    long n = r.nextLong() & 0xFFFF_FFFF_FFFFL;
    return server == 0 ? n & ~(1L << 40) : n | (1L << 40);
  }

  static long ticks(LocalDateTime t) {
    return t.toEpochSecond(ZoneOffset.UTC) * 10_000_000L + UUID_EPOCH_TICKS;
  }

  /** A timestamp as a TIMESTAMP value: whole microseconds, the column type's precision. */
  static LocalDateTime time(long ticks) {
    long micros = Math.floorDiv(ticks - UUID_EPOCH_TICKS, 10);
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L),
        (int) Math.floorMod(micros, 1_000_000L) * 1000,
        ZoneOffset.UTC);
  }

  /** A 64-bit hash of (seed, stream, i): the seed of row i's values in that stream. */
  static long mix(long seed, int stream, long i) {
    long z = seed + 0x9E3779B97F4A7C15L * (i + 1) + 0xD1B54A32D192ED03L * stream;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * A keyed permutation of {@code 0 .. size - 1}: a four-round Feistel network on the smallest even
   * number of bits that holds {@code size}, cycle-walking values that fall outside (fewer than four
   * steps on average). Consecutive inputs land far apart, as lookups in a random order would.
   */
  static final class Feistel {
    private final long size;
    private final int halfBits;
    private final long halfMask;
    private final long key;

    Feistel(long size, long key) {
      this.size = size;
      int bits = Math.max(2, 64 - Long.numberOfLeadingZeros(Math.max(1, size - 1)));
      bits += bits & 1;
      this.halfBits = bits / 2;
      this.halfMask = (1L << halfBits) - 1;
      this.key = key;
    }

    long apply(long x) {
      if (x < 0 || x >= size) {
        throw new IllegalArgumentException("x : " + x + " (expected: 0.." + (size - 1) + ")");
      }
      long v = x;
      do {
        v = once(v);
      } while (v >= size);
      return v;
    }

    private long once(long v) {
      long l = v >>> halfBits;
      long r = v & halfMask;
      for (int round = 0; round < 4; round++) {
        long f = mix(key, round, r) & halfMask;
        long nl = r;
        r = l ^ f;
        l = nl;
      }
      return (l << halfBits) | r;
    }
  }
}
