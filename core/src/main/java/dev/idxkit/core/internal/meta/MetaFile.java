package dev.idxkit.core.internal.meta;

import dev.idxkit.core.CorruptDatabaseException;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.spi.FileIo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The {@code meta} file: two alternating checksummed slots, the LMDB trick. A write goes to the
 * slot that does not hold the newest valid generation, so a torn write can only damage the slot
 * being replaced and open falls back to the other one.
 *
 * <p>Each slot is a 64-byte anchor pointing at its payload (a {@link MetaCodec} encoding), which
 * lives elsewhere in the file so payloads can be any size. A new payload is placed where it does
 * not overlap the other slot's payload, so the file stays within about twice the largest payload.
 *
 * <pre>
 * file:   [anchor 0 @0][anchor 1 @512] ... payloads at 4096-aligned offsets ...
 * anchor:  0 u64 MAGIC "IDXKMETA"      8 u32 FORMAT_VERSION   12 u32 slot
 *         16 u64 generation           24 u64 payloadOffset   32 u32 payloadLength
 *         36 u32 payloadCrc32c        40 u64 walSalt         48..59 zero
 *         60 u32 crc32c of [0,60)
 * </pre>
 *
 * Write order: payload, anchor, one fsync. The anchor's checksum covers the payload's checksum, so
 * whatever part of the write reached the disk, a slot is either wholly valid or rejected.
 *
 * <p>Falling back is only right for a slot torn while it was being written. Each anchor therefore
 * records the salt of the write-ahead log that follows it (the store resets the log with that salt
 * right after the meta write), so the store can tell a torn newest slot (the log still carries the
 * older slot's salt) from one damaged later (the log has moved on): see {@link #walSalt()}. A salt
 * of 0 means "not recorded".
 */
public final class MetaFile implements AutoCloseable {
  public static final long MAGIC = 0x4154454D4B584449L; // "IDXKMETA" little-endian
  public static final int FORMAT_VERSION = 1;
  static final int ANCHOR_SIZE = 64;
  static final int SLOT_STRIDE = 512;
  static final int PAYLOAD_START = 4096;
  static final int MAX_PAYLOAD = 1 << 30;

  private final Path path;
  private final FileChannel channel;
  private Slot current;
  private Slot other;

  /** One slot's anchor as read: valid or the reason it is not. */
  record Slot(int index, long generation, long offset, int length, long walSalt, String invalid) {
    boolean valid() {
      return invalid == null;
    }
  }

  private MetaFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** Creates a new meta file holding {@code payload} as generation {@code generation}. */
  public static MetaFile create(Path path, long generation, byte[] payload) {
    return create(path, generation, payload, 0, FileIo.DEFAULT);
  }

  /**
   * As {@link #create(Path, long, byte[])}, recording {@code walSalt} (see {@link #walSalt()}),
   * with the file's channel opened by {@code io}.
   */
  public static MetaFile create(
      Path path, long generation, byte[] payload, long walSalt, FileIo io) {
    try {
      FileChannel ch =
          io.open(
              path,
              Set.of(
                  StandardOpenOption.READ,
                  StandardOpenOption.WRITE,
                  StandardOpenOption.CREATE_NEW));
      MetaFile f = new MetaFile(path, ch);
      f.current = invalid(1, "empty");
      f.other = invalid(0, "empty");
      f.write(generation, payload, walSalt);
      return f;
    } catch (IOException e) {
      throw new IdxkitIOException("cannot create " + path, e);
    }
  }

  /** Opens an existing meta file; the caller reads {@link #readCurrent()}. */
  public static MetaFile open(Path path, boolean readOnly) {
    return open(path, readOnly, FileIo.DEFAULT);
  }

  /** As {@link #open(Path, boolean)}, with the file's channel opened by {@code io}. */
  public static MetaFile open(Path path, boolean readOnly, FileIo io) {
    FileChannel ch;
    try {
      ch =
          readOnly
              ? io.open(path, Set.of(StandardOpenOption.READ))
              : io.open(path, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
    } catch (IOException e) {
      throw new IdxkitIOException("cannot open " + path, e);
    }
    MetaFile f = new MetaFile(path, ch);
    try {
      Slot a = f.readAnchor(0);
      Slot b = f.readAnchor(1);
      if (!a.valid() && !b.valid()) {
        throw new CorruptDatabaseException(
            path, "no valid meta slot (slot 0: " + a.invalid() + "; slot 1: " + b.invalid() + ")");
      }
      boolean aWins = a.valid() && (!b.valid() || a.generation() > b.generation());
      f.current = aWins ? a : b;
      f.other = aWins ? b : a;
      return f;
    } catch (RuntimeException e) {
      f.close();
      throw e;
    }
  }

  public Path path() {
    return path;
  }

  /** The generation of the slot that open chose (or the last write). */
  public long generation() {
    return current.generation();
  }

  /** Which slot holds the current generation, for tests that damage the other one. */
  public int currentSlot() {
    return current.index();
  }

  /** The salt of the log that follows the current slot, as written with it; 0 if not recorded. */
  public long walSalt() {
    return current.walSalt();
  }

  /** Why the other slot is not current: null if it is valid (older), else the reason. */
  public String otherSlotProblem() {
    return other.invalid();
  }

  /** The current slot's payload (already checksum-verified at open). */
  public byte[] readCurrent() {
    try {
      return readPayload(current.offset(), current.length());
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read " + path, e);
    }
  }

  /** Writes {@code payload} as {@code generation} into the slot not holding the current one. */
  public void write(long generation, byte[] payload) {
    write(generation, payload, 0);
  }

  /** As {@link #write(long, byte[])}, recording the salt of the log that will follow it. */
  public void write(long generation, byte[] payload, long walSalt) {
    if (generation <= current.generation()) {
      throw new IllegalArgumentException(
          "meta generation " + generation + " (expected: > " + current.generation() + ")");
    }
    int slot = 1 - current.index();
    long offset = PAYLOAD_START;
    if (current.valid() && overlaps(offset, payload.length, current.offset(), current.length())) {
      offset = align(current.offset() + current.length());
    }
    CRC32C crc = new CRC32C();
    crc.update(payload);
    ByteBuffer anchor = ByteBuffer.allocate(ANCHOR_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    anchor.putLong(0, MAGIC);
    anchor.putInt(8, FORMAT_VERSION);
    anchor.putInt(12, slot);
    anchor.putLong(16, generation);
    anchor.putLong(24, offset);
    anchor.putInt(32, payload.length);
    anchor.putInt(36, (int) crc.getValue());
    anchor.putLong(40, walSalt);
    anchor.putInt(60, crc32c(anchor.array(), 0, 60));
    try {
      writeFully(ByteBuffer.wrap(payload), offset);
      writeFully(anchor, (long) slot * SLOT_STRIDE);
      channel.force(false);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot write meta slot " + slot + " of " + path, e);
    }
    other = current;
    current = new Slot(slot, generation, offset, payload.length, walSalt, null);
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new IdxkitIOException("cannot close " + path, e);
    }
  }

  private static Slot invalid(int slot, String why) {
    return new Slot(slot, -1, 0, 0, 0, why);
  }

  private Slot readAnchor(int slot) {
    try {
      ByteBuffer a = ByteBuffer.allocate(ANCHOR_SIZE).order(ByteOrder.LITTLE_ENDIAN);
      long pos = (long) slot * SLOT_STRIDE;
      while (a.hasRemaining()) {
        if (channel.read(a, pos + a.position()) < 0) {
          return invalid(slot, "file ends before the anchor");
        }
      }
      if (a.getLong(0) != MAGIC) {
        return invalid(slot, "bad magic");
      }
      int anchorCrc = crc32c(a.array(), 0, 60);
      if (a.getInt(60) != anchorCrc) {
        return invalid(
            slot,
            String.format(
                "anchor checksum mismatch (expected: 0x%08x, actual: 0x%08x)",
                a.getInt(60), anchorCrc));
      }
      if (a.getInt(8) != FORMAT_VERSION) {
        return invalid(
            slot, "format version " + a.getInt(8) + " (expected: " + FORMAT_VERSION + ")");
      }
      long gen = a.getLong(16);
      long off = a.getLong(24);
      int len = a.getInt(32);
      if (off < PAYLOAD_START || len < 0 || len > MAX_PAYLOAD || off + len > channel.size()) {
        return invalid(slot, "payload " + off + "+" + len + " outside the file");
      }
      byte[] payload = readPayload(off, len);
      int actual = crc32c(payload, 0, len);
      if (actual != a.getInt(36)) {
        return invalid(
            slot,
            String.format(
                "payload checksum mismatch (expected: 0x%08x, actual: 0x%08x)",
                a.getInt(36), actual));
      }
      return new Slot(slot, gen, off, len, a.getLong(40), null);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read meta slot " + slot + " of " + path, e);
    }
  }

  private byte[] readPayload(long off, int len) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(len);
    while (b.hasRemaining()) {
      if (channel.read(b, off + b.position()) < 0) {
        throw new CorruptDatabaseException(path, "meta payload cut short at " + (off + len));
      }
    }
    return b.array();
  }

  private void writeFully(ByteBuffer b, long pos) throws IOException {
    long p = pos;
    while (b.hasRemaining()) {
      p += channel.write(b, p);
    }
  }

  private static boolean overlaps(long a, long alen, long b, long blen) {
    return a < b + blen && b < a + alen;
  }

  private static long align(long v) {
    return (v + PAYLOAD_START - 1) & -PAYLOAD_START;
  }

  private static int crc32c(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }
}
