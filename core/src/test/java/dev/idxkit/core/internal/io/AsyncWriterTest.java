package dev.idxkit.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Within;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's pool: a caller never waits for a buffer that no write will give back, and writes in
 * flight are waited for without growing the pool.
 */
class AsyncWriterTest {
  private static final int PAGE = 8192;

  @TempDir Path dir;

  @Test
  void aCallerGetsANewBufferWhenEveryBufferIsHeldAndNoneIsInFlight() throws Exception {
    AsyncWriter w = new AsyncWriter(2, PAGE, 1);
    try {
      ByteBuffer a = w.acquire();
      ByteBuffer b = w.acquire();
      a.put(0, (byte) 7).position(PAGE);
      // Both held, none submitted: this used to wait for ever. The limit only turns a hang into a
      // failure; a correct writer answers at once.
      ByteBuffer c = Within.seconds(30, "acquire()", w::acquire);
      assertThat(c).isNotSameAs(a).isNotSameAs(b);
      assertThat(c.isDirect()).isTrue();
      assertThat(c.position()).isZero();
      assertThat(c.limit()).isEqualTo(PAGE).isEqualTo(c.capacity());
      assertThat(w.buffers()).isEqualTo(3);
      assertThat(w.storeOf(c).capacity()).as("a buffer of the pool").isEqualTo(PAGE);
      assertThat(a.position()).as("the held buffers are untouched").isEqualTo(PAGE);
      assertThat(a.get(0)).isEqualTo((byte) 7);
      w.release(a);
      w.release(b);
      w.release(c);
      // Three free: taken without growing again.
      for (int i = 0; i < 3; i++) {
        w.acquire();
      }
      assertThat(w.buffers()).isEqualTo(3);
    } finally {
      w.close();
    }
  }

  @Test
  void buffersAreAllocatedAsFirstNeededNotUpFront() {
    try (AsyncWriter w = new AsyncWriter(16, PAGE, 1)) {
      assertThat(w.buffers()).as("a new writer").isZero();
      ByteBuffer a = w.acquire();
      assertThat(w.buffers()).isEqualTo(1);
      assertThat(w.storeOf(a).capacity()).as("a buffer of the pool").isEqualTo(PAGE);
      w.release(a);
      for (int i = 0; i < 5; i++) {
        w.release(w.acquire());
      }
      assertThat(w.buffers()).as("a free buffer is taken before a new one").isEqualTo(1);
      ByteBuffer b = w.acquire();
      ByteBuffer c = w.acquire();
      assertThat(c).isNotSameAs(b);
      assertThat(w.buffers()).as("two held").isEqualTo(2);
    }
  }

  @Test
  void writesInFlightAreWaitedForWithoutGrowingThePool() {
    int pages = 300;
    try (PageFile f = PageFile.open(dir.resolve("f"), PAGE, true, false);
        AsyncWriter w = new AsyncWriter(2, PAGE, 2)) {
      for (int i = 0; i < pages; i++) {
        ByteBuffer b = w.acquire();
        for (int at = 0; at < PAGE; at += 8) {
          b.putLong(at, i * 31L + at);
        }
        b.position(PAGE).flip();
        w.submit(f, i, b);
      }
      w.flush();
      // Every acquire found a free buffer, room in the pool or a write in flight to wait for.
      assertThat(w.buffers()).isBetween(1, 2);
      assertThat(w.bytesWritten()).isEqualTo((long) pages * PAGE);
      assertThat(f.sizeInPages()).isEqualTo(pages);
    }
  }
}
