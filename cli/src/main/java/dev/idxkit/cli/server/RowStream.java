package dev.idxkit.cli.server;

import dev.idxkit.cli.output.RowFormat;
import dev.idxkit.cli.output.RowWriter;
import dev.idxkit.cli.output.RowWriters;
import dev.idxkit.core.ProblemText;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.schema.ColumnDef;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Sends the rows of an index cursor as JSON Lines without holding more than one chunk of them.
 *
 * <p>Steps:
 *
 * <ol>
 *   <li>{@link #start()} on a read thread fills the first chunk (up to {@value #CHUNK_BYTES} bytes
 *       of rows). An error here (inactive index, damaged page) still becomes a 4xx/5xx answer,
 *       since nothing has been sent. If the cursor is exhausted within the first chunk, the answer
 *       is one ordinary response with a {@code Content-Length} - the common case of a point lookup.
 *   <li>Otherwise the response head goes out with {@code Transfer-Encoding: chunked}, then the
 *       first chunk. When a chunk's write completes (on the event loop) and the socket can take
 *       more, the next chunk is filled on a read thread; if the socket's buffer is full (the client
 *       reads slowly), the stream waits for Netty's writability signal instead. At most one chunk
 *       is in flight per stream, and no read thread ever blocks on a slow client.
 *   <li>The last chunk is sent with the end marker. If the client goes away, the cursor is closed
 *       at the next step; if a read fails after the head was sent, the connection is closed without
 *       the end marker, which an HTTP client reports as an incomplete response.
 * </ol>
 *
 * <p>Rows are written by {@link RowWriters}' JSON format (the one {@code idxkit scan --format json}
 * prints) through a {@link PrintWriter} whose target is switched to each chunk's buffer. The cursor
 * reads in batches, each under the store's read lock (see {@code IndexScan}): a scan sees whole
 * commits, and commits made while it runs are seen from where it has got to.
 */
final class RowStream {
  static final int CHUNK_BYTES = 32 << 10;

  /** An output stream writing into whichever buffer the current chunk is. */
  private static final class Target extends OutputStream {
    ByteBuf buf;

    @Override
    public void write(int b) {
      buf.writeByte(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      buf.writeBytes(b, off, len);
    }
  }

  private final Exchange ex;
  private final RowCursor cursor;
  private final Executor executor;
  private final ServerMetrics metrics;
  private final Target target = new Target();
  private final PrintWriter out;
  private final RowWriter writer;
  // The cursor has one owner at a time: the read thread filling a chunk, or the event loop while
  // a chunk is being written or the stream waits for the socket to drain. Hand-overs go through
  // the executor and Netty's write listeners, which order memory; only the owner closes it.
  private boolean waiting; // event loop only
  private boolean ended; // the owner's

  RowStream(
      Exchange ex,
      RowCursor cursor,
      List<ColumnDef> columns,
      int[] selected,
      Executor executor,
      ServerMetrics metrics) {
    this.ex = ex;
    this.cursor = cursor;
    this.executor = executor;
    this.metrics = metrics;
    this.out = new PrintWriter(new OutputStreamWriter(target, StandardCharsets.UTF_8), false);
    this.writer = RowWriters.create(RowFormat.JSON, columns, selected, out);
  }

  /** Fills and sends the first chunk; runs on a read thread. Throws before anything is sent. */
  void start() {
    ByteBuf first = ex.ctx().alloc().buffer(CHUNK_BYTES);
    boolean more;
    try {
      more = fill(first);
    } catch (RuntimeException e) {
      first.release();
      cursor.close();
      throw e;
    }
    if (!more) {
      cursor.close();
      ended = true;
      FullHttpResponse r =
          new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, first);
      headers(r);
      HttpUtil.setContentLength(r, first.readableBytes());
      ChannelFuture f = ex.sendHead(r, null);
      f.addListener(w -> ex.endStream(w.isSuccess()));
      return;
    }
    HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    headers(head);
    HttpUtil.setTransferEncodingChunked(head, true);
    ex.sendHead(head, this);
    send(new DefaultHttpContent(first), false);
  }

  private static void headers(HttpResponse r) {
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, Exchange.JSON_LINES);
    r.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
  }

  /** Writes rows into {@code buf} until it is full; false when the cursor is exhausted. */
  private boolean fill(ByteBuf buf) {
    target.buf = buf;
    long n = 0;
    try {
      while (buf.readableBytes() < CHUNK_BYTES) {
        if (!cursor.hasNext()) {
          return false;
        }
        Row r = cursor.next();
        writer.row(r.values());
        out.flush();
        n++;
      }
      return true;
    } finally {
      target.buf = null;
      metrics.rowsStreamed(n);
    }
  }

  private void send(io.netty.handler.codec.http.HttpContent chunk, boolean last) {
    ex.sendChunk(chunk)
        .addListener(
            f -> {
              if (!f.isSuccess()) {
                end();
                ex.abort(null); // the client went away or the connection was closed
              } else if (last) {
                ex.endStream(true);
              } else if (ex.ctx().channel().isWritable()) {
                next();
              } else {
                waiting = true;
              }
            });
  }

  /** The socket drained below its low-water mark (event loop). */
  void writable() {
    if (waiting && !ended) {
      waiting = false;
      next();
    }
  }

  /**
   * The connection closed (event loop). A waiting stream is the event loop's to end; otherwise a
   * fill is scheduled or a write is in flight, and the fill (seeing the channel closed) or the
   * write's failure ends it.
   */
  void cancel() {
    if (waiting) {
      waiting = false;
      end();
      ex.abort(null);
    }
  }

  private void next() {
    try {
      executor.execute(this::produce);
    } catch (RejectedExecutionException e) {
      end();
      ex.abort("the server is shutting down");
    }
  }

  /** Fills and sends the next chunk; runs on a read thread. */
  private void produce() {
    if (ended) {
      return;
    }
    if (!ex.ctx().channel().isActive()) {
      end();
      ex.abort(null);
      return;
    }
    ByteBuf buf = ex.ctx().alloc().buffer(CHUNK_BYTES);
    boolean more;
    try {
      more = fill(buf);
    } catch (RuntimeException e) {
      buf.release();
      end();
      ex.abort(ProblemText.of(e), e);
      return;
    }
    if (more) {
      send(new DefaultHttpContent(buf), false);
    } else {
      end();
      send(new DefaultLastHttpContent(buf), true);
    }
  }

  private void end() {
    if (!ended) {
      ended = true;
      cursor.close();
    }
  }
}
