package dev.idxkit.core.internal.txn;

import dev.idxkit.core.spi.Page;
import java.nio.ByteBuffer;
import net.openhft.chronicle.bytes.BytesStore;

/** One page of direct memory: a transaction's private copy or a committed image awaiting home. */
final class PageBuffer {
  final ByteBuffer buffer;
  final Page page;

  PageBuffer(int pageSize) {
    this.buffer = ByteBuffer.allocateDirect(pageSize);
    this.page = new Page(BytesStore.wrap(buffer), 0, pageSize);
  }
}
