package dev.idxkit.corrupt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * One damage done to one file of a copy of a base database: the sweep's unit. A mutation is a line
 * of text ({@link #line}, {@link #parse}) so the parent can plan it and a victim JVM apply it.
 *
 * @param id its number in the sweep
 * @param base which base database ({@code loaded}, {@code rebuilt})
 * @param file the file in the database directory ({@code meta}, {@code wal}, {@code data.area},
 *     ...)
 * @param target what is damaged, for the summary: {@code heap}, {@code leaf}, {@code wal commit
 *     frame}, ...
 * @param op what is done
 * @param offset where in the file
 * @param length how many bytes it may touch (the target's extent from {@code offset})
 * @param source for {@link Op#COPY}: where the bytes copied over the target come from
 * @param seed the bits to flip, the garbage to write
 * @param readOnly whether the victim opens the damaged copy read-only
 */
record Mutation(
    int id,
    String base,
    String file,
    String target,
    Op op,
    long offset,
    int length,
    long source,
    long seed,
    boolean readOnly) {
  /** The kinds of damage. */
  enum Op {
    /** One bit of one byte. */
    FLIP_BIT,
    /** Eight random bits within the target. */
    FLIP_BITS,
    /** 64 bytes within the target zeroed. */
    ZERO_RANGE,
    /** The whole target zeroed. */
    ZERO_TARGET,
    /** 32 random bytes within the target. */
    GARBAGE,
    /** The file cut at {@code offset}. */
    TRUNCATE,
    /** Another page of the same file written over the target: a misdirected write. */
    COPY
  }

  String line() {
    return String.join(
        "\t",
        Integer.toString(id),
        base,
        file,
        target,
        op.name(),
        Long.toString(offset),
        Integer.toString(length),
        Long.toString(source),
        Long.toString(seed),
        Boolean.toString(readOnly));
  }

  static Mutation parse(String line) {
    String[] f = line.split("\t");
    return new Mutation(
        Integer.parseInt(f[0]),
        f[1],
        f[2],
        f[3],
        Op.valueOf(f[4]),
        Long.parseLong(f[5]),
        Integer.parseInt(f[6]),
        Long.parseLong(f[7]),
        Long.parseLong(f[8]),
        Boolean.parseBoolean(f[9]));
  }

  @Override
  public String toString() {
    return "#"
        + id
        + " "
        + op
        + " of "
        + target
        + " in "
        + base
        + "/"
        + file
        + " at "
        + offset
        + (op == Op.COPY ? " from " + source : "")
        + (readOnly ? " (read-only open)" : "");
  }

  /** Damages {@code file} in {@code dir} as described. */
  void apply(Path dir) {
    SplittableRandom r = new SplittableRandom(seed);
    try (FileChannel ch =
        FileChannel.open(dir.resolve(file), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      switch (op) {
        case FLIP_BIT -> flip(ch, offset, r.nextInt(8));
        case FLIP_BITS -> {
          for (int i = 0; i < 8; i++) {
            flip(ch, offset + r.nextInt(length), r.nextInt(8));
          }
        }
        case ZERO_RANGE -> {
          long at = offset + (length > 64 ? (r.nextInt(length - 63) & ~63) : 0);
          write(ch, at, new byte[Math.min(64, length)]);
        }
        case ZERO_TARGET -> write(ch, offset, new byte[length]);
        case GARBAGE -> {
          byte[] g = new byte[Math.min(32, length)];
          r.nextBytes(g);
          write(ch, offset + r.nextInt(Math.max(1, length - g.length + 1)), g);
        }
        case TRUNCATE -> ch.truncate(offset);
        case COPY -> {
          ByteBuffer b = ByteBuffer.allocate(length);
          ch.read(b, source);
          b.flip();
          ch.write(b, offset);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot apply mutation " + this, e);
    }
  }

  private static void flip(FileChannel ch, long at, int bit) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(1);
    if (ch.read(b, at) != 1) {
      return; // past the end: nothing to flip
    }
    b.put(0, (byte) (b.get(0) ^ (1 << bit)));
    b.rewind();
    ch.write(b, at);
  }

  private static void write(FileChannel ch, long at, byte[] bytes) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      ch.write(b, at + b.position());
    }
  }
}
