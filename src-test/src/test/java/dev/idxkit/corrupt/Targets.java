package dev.idxkit.corrupt;

import dev.idxkit.core.internal.log.WalFormat;
import dev.idxkit.core.spi.PageType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What there is to damage in a base database, by kind, and the plan of a sweep over it.
 *
 * <p>Kinds: the meta file's two anchors and its payloads; in each area file the header page and
 * every page by its type byte (heap, overflow, leaf, branch, free); in the log its header and its
 * frames (parsed from the frame headers: one per transaction in format 4). A sweep draws a kind
 * uniformly, then a target of that kind, then a damage that fits it ({@link Mutation.Op}), so rare
 * kinds (a branch page, the log header) are hit as often as common ones.
 */
final class Targets {
  /** One damageable extent of a file. */
  record Target(String file, String kind, long offset, int length) {}

  private final String base;
  private final Map<String, List<Target>> byKind = new TreeMap<>();

  private Targets(String base) {
    this.base = base;
  }

  Map<String, List<Target>> byKind() {
    return byKind;
  }

  /**
   * @param unused {@code file#page} of the pages no answer reads ({@link
   *     SweepDatabase#unusedPages}): they form the kind "unused page"
   */
  static Targets of(String base, Path dir, int pageSize, java.util.Set<String> unused) {
    Targets t = new Targets(base);
    try {
      long metaSize = Files.size(dir.resolve("meta"));
      t.add(new Target("meta", "meta anchor", 0, 64));
      t.add(new Target("meta", "meta anchor", 512, 64));
      for (long at = 4096; at < metaSize; at += 4096) {
        t.add(new Target("meta", "meta payload", at, (int) Math.min(4096, metaSize - at)));
      }
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          String name = f.getFileName().toString();
          if (name.endsWith(".area")) {
            t.pages(f, pageSize, unused);
          }
        }
      }
      t.wal(dir.resolve("wal"), pageSize);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return t;
  }

  private void add(Target target) {
    byKind.computeIfAbsent(target.kind(), k -> new ArrayList<>()).add(target);
  }

  private void pages(Path file, int pageSize, java.util.Set<String> unused) throws IOException {
    byte[] all = Files.readAllBytes(file);
    String name = file.getFileName().toString();
    for (long p = 0; (p + 1) * pageSize <= all.length; p++) {
      int code = all[(int) (p * pageSize) + 4] & 0xFF;
      PageType type = PageType.ofCode(code);
      String kind =
          p == 0
              ? "area header"
              : unused.contains(name + "#" + p) || type == null
                  ? "unused page"
                  : type.name().toLowerCase(Locale.ROOT);
      add(new Target(name, kind, p * pageSize, pageSize));
    }
  }

  private void wal(Path file, int pageSize) throws IOException {
    long size = Files.size(file);
    add(new Target("wal", "wal header", 0, WalFormat.HEADER_SIZE));
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long pos = WalFormat.HEADER_SIZE;
      ByteBuffer h = ByteBuffer.allocate(WalFormat.FRAME_HEADER).order(ByteOrder.LITTLE_ENDIAN);
      while (pos + WalFormat.FRAME_HEADER <= size) {
        h.clear();
        ch.read(h, pos);
        int kind = h.get(4);
        // Format 4 writes a TXN frame per transaction (its payload's length at 24); formats 2 and
        // 3 wrote REDO frames (a redo record, its length at 24) and COMMIT frames; format 1 PAGE.
        int payload = kind == WalFormat.KIND_PAGE ? pageSize : h.getInt(24);
        if ((kind != WalFormat.KIND_PAGE
                && kind != WalFormat.KIND_COMMIT
                && kind != WalFormat.KIND_REDO
                && kind != WalFormat.KIND_TXN)
            || payload < 0
            || pos + WalFormat.FRAME_HEADER + payload > size) {
          break;
        }
        add(
            new Target(
                "wal",
                switch (kind) {
                  case WalFormat.KIND_TXN -> "wal transaction frame";
                  case WalFormat.KIND_REDO -> "wal redo frame";
                  case WalFormat.KIND_PAGE -> "wal page frame";
                  default -> "wal commit frame";
                },
                pos,
                WalFormat.FRAME_HEADER + payload));
        pos += WalFormat.FRAME_HEADER + payload;
      }
    }
  }

  /** Draws mutation {@code id} of this base. */
  Mutation draw(int id, SplittableRandom r) {
    List<String> kinds = new ArrayList<>(byKind.keySet());
    String kind = kinds.get(r.nextInt(kinds.size()));
    List<Target> ts = byKind.get(kind);
    Target t = ts.get(r.nextInt(ts.size()));
    Mutation.Op[] ops = Mutation.Op.values();
    Mutation.Op op = ops[r.nextInt(ops.length)];
    long offset = t.offset();
    int length = t.length();
    long source = -1;
    boolean page = t.file().endsWith(".area");
    if (op == Mutation.Op.COPY && !page) {
      op = Mutation.Op.FLIP_BITS; // copying only makes sense between pages
    }
    switch (op) {
      case FLIP_BIT -> {
        // A third of the single flips go into the header: type, page number, checksum, frame kind.
        int span = r.nextInt(3) == 0 ? Math.min(length, 32) : length;
        offset += r.nextInt(span);
        length = 1;
      }
      case TRUNCATE -> {
        if (r.nextBoolean() && length > 1) {
          offset += 1 + r.nextInt(length - 1); // mid-target
        }
      }
      case COPY -> {
        List<Target> same = byKind.getOrDefault(kind, ts);
        Target other = same.get(r.nextInt(same.size()));
        if (other.offset() == t.offset() || !other.file().equals(t.file())) {
          op = Mutation.Op.ZERO_TARGET;
        } else {
          source = other.offset();
        }
      }
      default -> {}
    }
    return new Mutation(
        id, base, t.file(), kind, op, offset, length, source, r.nextLong(), r.nextInt(3) == 0);
  }
}
