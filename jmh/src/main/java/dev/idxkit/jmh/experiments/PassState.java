package dev.idxkit.jmh.experiments;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where an {@link AccountingPass} has got to: which reader configuration and phase it is in, how
 * far each reader's slice is done, the tally of exactly the objects before those positions, and the
 * measurements of the phases already finished. It is the checkpoint, stored as the database resume
 * point {@value #KEY} and committed with a synced log, so a killed pass resumes from the last one
 * without counting an object twice or missing one.
 *
 * <h2>Layout (format {@value #FORMAT_VERSION}, big-endian)</h2>
 *
 * <pre>
 * u32 magic 0x41434350 "ACCP"   u16 format version   u16 C = reader configurations
 * C x u16 readers               (e.g. 1, 2, 4)
 * i64 fingerprint               hash of the data set's identity: a pass resumes only on its data
 * u16 config in progress        index into the C configurations
 * u8  phase in progress         0 clustered, 1 random
 * u8  resumed                   1 if this phase was resumed at least once
 * u16 R                         readers of that configuration
 * R x i64 next object           per slice: the 0-based index of the next object to read
 * i64 objects  i64 lookups  i64 nanos     the phase so far (up to this checkpoint)
 * u16 M                         finished phases, M x:
 *     u16 readers  u8 phase  u8 resumed  i64 objects  i64 lookups  i64 nanos
 * u8  has reference             1 if a configuration finished: its tally, which every later one
 *     [tally]                   must equal (Tally documents its encoding)
 * tally                         the current configuration's tally up to the positions above
 * </pre>
 */
final class PassState {
  static final String KEY = "bench:accounting";
  static final int MAGIC = 0x41434350;
  static final int FORMAT_VERSION = 1;

  /** A finished phase of one reader configuration. */
  record Measurement(
      int readers, int phase, boolean resumed, long objects, long lookups, long nanos) {
    double lookupsPerSecond() {
      return lookups / (nanos / 1e9);
    }
  }

  final int[] readers;
  final long fingerprint;
  int config;
  int phase;
  boolean resumed;
  long[] next;
  long objects;
  long lookups;
  long nanos;
  final List<Measurement> done = new ArrayList<>();
  Tally reference;
  Tally tally = new Tally();

  PassState(int[] readers, long fingerprint) {
    this.readers = readers.clone();
    this.fingerprint = fingerprint;
  }

  byte[] encode() {
    int size =
        4
            + 2
            + 2
            + 2 * readers.length
            + 8
            + 2
            + 1
            + 1
            + 2
            + 8 * next.length
            + 24
            + 2
            + done.size() * 28
            + 1
            + (reference == null ? 0 : Tally.encodedSize())
            + Tally.encodedSize();
    ByteBuffer b = ByteBuffer.allocate(size);
    b.putInt(MAGIC).putShort((short) FORMAT_VERSION).putShort((short) readers.length);
    for (int r : readers) {
      b.putShort((short) r);
    }
    b.putLong(fingerprint).putShort((short) config).put((byte) phase).put((byte) (resumed ? 1 : 0));
    b.putShort((short) next.length);
    for (long n : next) {
      b.putLong(n);
    }
    b.putLong(objects).putLong(lookups).putLong(nanos);
    b.putShort((short) done.size());
    for (Measurement m : done) {
      b.putShort((short) m.readers())
          .put((byte) m.phase())
          .put((byte) (m.resumed() ? 1 : 0))
          .putLong(m.objects())
          .putLong(m.lookups())
          .putLong(m.nanos());
    }
    b.put((byte) (reference == null ? 0 : 1));
    if (reference != null) {
      reference.encode(b);
    }
    tally.encode(b);
    if (b.hasRemaining()) {
      throw new IllegalStateException("pass state: " + b.remaining() + " bytes unwritten");
    }
    return b.array();
  }

  /**
   * Decodes a checkpoint; throws {@link IllegalArgumentException} naming what does not match if it
   * is not one of this format.
   */
  static PassState decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    int magic = b.getInt();
    int version = b.getShort();
    if (magic != MAGIC || version != FORMAT_VERSION) {
      throw new IllegalArgumentException(
          "resume point "
              + KEY
              + ": magic "
              + Integer.toHexString(magic)
              + " version "
              + version
              + " (expected: "
              + Integer.toHexString(MAGIC)
              + " version "
              + FORMAT_VERSION
              + ")");
    }
    int[] readers = new int[b.getShort()];
    for (int i = 0; i < readers.length; i++) {
      readers[i] = b.getShort();
    }
    PassState s = new PassState(readers, b.getLong());
    s.config = b.getShort();
    s.phase = b.get();
    s.resumed = b.get() != 0;
    s.next = new long[b.getShort()];
    for (int i = 0; i < s.next.length; i++) {
      s.next[i] = b.getLong();
    }
    s.objects = b.getLong();
    s.lookups = b.getLong();
    s.nanos = b.getLong();
    for (int m = b.getShort(); m > 0; m--) {
      s.done.add(
          new Measurement(
              b.getShort(), b.get(), b.get() != 0, b.getLong(), b.getLong(), b.getLong()));
    }
    if (b.get() != 0) {
      s.reference = Tally.decode(b);
    }
    s.tally = Tally.decode(b);
    if (b.hasRemaining()) {
      throw new IllegalArgumentException(
          "resume point " + KEY + ": " + b.remaining() + " bytes after the tally");
    }
    return s;
  }

  /** True if this checkpoint belongs to a pass over {@code readers} on data {@code fingerprint}. */
  boolean matches(int[] readers, long fingerprint) {
    return this.fingerprint == fingerprint && Arrays.equals(this.readers, readers);
  }
}
