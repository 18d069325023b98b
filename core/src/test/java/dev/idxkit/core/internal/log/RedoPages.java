package dev.idxkit.core.internal.log;

import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.PageType;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import net.openhft.chronicle.bytes.BytesStore;

/** Pages in direct memory and the random edits of the redo tests. */
final class RedoPages {
  static final int[] SIZES = {4096, 8192, 16384, 65536};

  private RedoPages() {}

  /** A zeroed page of {@code size} bytes. */
  static Page page(int size) {
    return new Page(BytesStore.wrap(ByteBuffer.allocateDirect(size)), 0, size);
  }

  /** A formatted page of random body bytes, sealed with {@code lsn}. */
  static Page randomPage(SplittableRandom r, int size, long pageNo, long lsn) {
    Page p = page(size);
    p.format(PageType.LEAF, pageNo, 1);
    byte[] body = new byte[size - Page.HEADER_SIZE];
    // Mostly zeros, as a page with free space is, with random runs.
    for (int i = 0; i < body.length; i += 1 + r.nextInt(64)) {
      body[i] = (byte) r.nextInt();
    }
    p.putBytes(Page.HEADER_SIZE, body, 0, body.length);
    p.seal(lsn);
    return p;
  }

  static Page copy(Page p) {
    Page c = page(p.size());
    c.copyFrom(p);
    return c;
  }

  static boolean same(Page a, Page b) {
    return java.util.Arrays.equals(a.getBytes(0, a.size()), b.getBytes(0, b.size()));
  }

  /**
   * One to a few random edits of the body, of the kinds a page sees: a few bytes set, a region
   * shifted (a slot array insertion), a long run rewritten, the last bytes, the whole body; then
   * sealed with the next lsn. The lsn and checksum always change, as at every commit.
   */
  static void randomEdits(SplittableRandom r, Page p) {
    int size = p.size();
    int body = size - Page.HEADER_SIZE;
    int edits = 1 + r.nextInt(6);
    for (int e = 0; e < edits; e++) {
      switch (r.nextInt(6)) {
        case 0 -> p.putU8(Page.HEADER_SIZE + r.nextInt(body), r.nextInt(256));
        case 1 -> {
          int from = Page.HEADER_SIZE + r.nextInt(body - 16);
          int len = r.nextInt(size - from - 8);
          p.move(from, from + 4, Math.min(len, size - from - 4));
        }
        case 2 -> {
          int len = 1 + r.nextInt(Math.min(body, 600));
          int at = Page.HEADER_SIZE + r.nextInt(body - len + 1);
          byte[] b = new byte[len];
          for (int i = 0; i < len; i++) {
            b[i] = (byte) r.nextInt();
          }
          p.putBytes(at, b, 0, len);
        }
        case 3 -> p.putU8(size - 1 - r.nextInt(8), r.nextInt(256));
        case 4 -> {
          if (r.nextInt(20) == 0) {
            byte[] b = new byte[body];
            for (int i = 0; i < body; i++) {
              b[i] = (byte) r.nextInt();
            }
            p.putBytes(Page.HEADER_SIZE, b, 0, body);
          }
        }
        default -> {
          // Scattered single bytes: many small ranges.
          for (int i = 0, n = r.nextInt(40); i < n; i++) {
            p.putU8(Page.HEADER_SIZE + r.nextInt(body), r.nextInt(256));
          }
        }
      }
    }
    p.seal(p.lsn() + 1 + r.nextInt(3));
  }
}
