package dev.idxkit.core.spi;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Rid;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Appends records to a table through a {@link BulkWrite} session: the loader's path, with no log.
 *
 * <p>Records fill a heap page in memory; a full page is written through the session's stream and a
 * new one started. Long records go to overflow chains written the same way. {@link #flush()} writes
 * the page being filled and adds the pages written so far and their rows to the table in the
 * session's meta, ready for {@link BulkWrite#publish()}; appends after a flush start a fresh page,
 * because a published page may not be rewritten without the log.
 *
 * <p>The page being filled is a Java array, and a record is appended to it with one array copy and
 * one slot write, the page's fill state (slot count, lowest record byte) kept in two fields: the
 * bytes are exactly those {@link HeapPage#insert} would write into a fresh page, record after
 * record (slots in order, data growing down from the page end, no holes), but without reading the
 * header back through a {@link Page} view for every record, which made the loader's appends cost
 * 170 ns a row. The header's counts are written once, when the page is complete; the page is then
 * formatted, sealed and written through the stream like any other page.
 *
 * <p>Several appenders may fill one table at once (one per loader thread); each has its own stream
 * and page, and flushes merge into the table's meta under the session's lock. Memory: one heap page
 * plus the pages of the overflow chain being written.
 */
public final class HeapAppender implements AutoCloseable {
  private static final VarHandle U16 =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int MAX_SLOTS = 0xFFFF; // a RID's slot field is 16 bits

  private final BulkWrite bulk;
  private final TableInfo table;
  private final BulkWrite.Stream stream;
  private final int pageSize;
  private final int maxInline;
  // The page being filled: its bytes, a view of them for the header and the write, its slot count
  // and the lowest byte of its record data (pageSize when empty).
  private final byte[] image;
  private final Page page;
  private int slots;
  private int dataStart;
  private boolean formatted;
  private final GrowableBytes scratch = new GrowableBytes(256);
  private long pageNo = -1;
  private PageRuns written = PageRuns.EMPTY;
  private long pendingRows;
  private long rows;

  public HeapAppender(BulkWrite bulk, TableInfo table) {
    this.bulk = bulk;
    this.table = table;
    this.stream = bulk.stream(table.area());
    this.pageSize = bulk.pageSize();
    this.maxInline = HeapPage.maxInlineLength(pageSize);
    this.image = new byte[pageSize];
    this.page = new Page(BytesStore.wrap(image), 0, pageSize);
  }

  /** Encodes a row (values already of the column types) and appends it; returns its RID. */
  public long append(Object[] row) {
    scratch.reset();
    table.layout().encode(row, scratch);
    return appendRecord(scratch.array(), 0, scratch.length());
  }

  /** Appends an encoded record and returns its RID. */
  public long appendRecord(byte[] rec, int off, int len) {
    byte[] body = rec;
    int bodyOff = off;
    int bodyLen = len;
    int flags = 0;
    if (len > maxInline) {
      byte[] whole = off == 0 && len == rec.length ? rec : Arrays.copyOfRange(rec, off, off + len);
      body = Overflow.stub(writeOverflow(whole), len);
      bodyOff = 0;
      bodyLen = body.length;
      flags = HeapPage.OVERFLOW_FLAG;
    } else if (len < 1) {
      throw new IllegalArgumentException(
          "record length : " + len + " (expected: 1.." + maxInline + ")");
    }
    int slotAt = HeapPage.HEADER_SIZE + HeapPage.SLOT_SIZE * slots;
    if (pageNo < 0 || dataStart - slotAt < bodyLen + HeapPage.SLOT_SIZE || slots == MAX_SLOTS) {
      writePage();
      startPage(stream.allocate());
      slotAt = HeapPage.HEADER_SIZE;
    }
    int at = dataStart - bodyLen;
    System.arraycopy(body, bodyOff, image, at, bodyLen);
    U16.set(image, slotAt, (short) at);
    U16.set(image, slotAt + 2, (short) (bodyLen | flags));
    dataStart = at;
    int slot = slots++;
    pendingRows++;
    rows++;
    return Rid.of(pageNo, slot);
  }

  /**
   * Starts filling a fresh heap page numbered {@code no}. The image is formatted once; after that
   * each page clears the bytes after the common header (with {@link Arrays#fill}, several times
   * faster than clearing them through the view) and takes its number: the type, version and area
   * stay, and the checksum and lsn are stamped by the write.
   */
  private void startPage(long no) {
    if (!formatted) {
      page.format(PageType.HEAP, no, table.area());
      formatted = true;
    } else {
      Arrays.fill(image, Page.HEADER_SIZE, pageSize, (byte) 0);
      page.renumber(no);
    }
    HeapPage.init(page);
    pageNo = no;
    slots = 0;
    dataStart = pageSize;
  }

  /** Rows appended so far. */
  public long rows() {
    return rows;
  }

  /** Writes the page being filled and records pages and rows in the session's meta. */
  public void flush() {
    writePage();
    pageNo = -1;
    if (written.pageCount() == 0 && pendingRows == 0) {
      return;
    }
    synchronized (bulk) {
      TableState t = bulk.meta().table(table.id());
      PageRuns pages = t.pages();
      for (int r = 0; r < written.runCount(); r++) {
        pages = pages.addRun(written.runStart(r), written.runLength(r));
      }
      bulk.meta().table(table.id(), new TableState(pages, t.rows() + pendingRows));
    }
    written = PageRuns.EMPTY;
    pendingRows = 0;
  }

  @Override
  public void close() {
    flush();
    stream.close();
  }

  private void writePage() {
    if (pageNo >= 0 && slots > 0) {
      HeapPage.setAppended(page, slots, dataStart);
      stream.write(pageNo, page);
      written = written.add(pageNo);
    } else if (pageNo >= 0) {
      stream.returnPage(pageNo);
    }
  }

  /** Writes an overflow chain through the stream and returns its first page. */
  private long writeOverflow(byte[] rec) {
    ChainPages chain = new ChainPages();
    long first = Overflow.write(chain, rec, 0, rec.length);
    for (var e : chain.pages.entrySet()) {
      stream.write(e.getKey(), e.getValue());
    }
    return first;
  }

  /** The pages of one overflow chain, numbered by the stream, held until the chain is complete. */
  private final class ChainPages implements PageAccess {
    final Map<Long, Page> pages = new LinkedHashMap<>();

    @Override
    public int pageSize() {
      return pageSize;
    }

    @Override
    public int areaId() {
      return table.area();
    }

    @Override
    public String name() {
      return "bulk load of " + table.name();
    }

    @Override
    public Page read(long no) {
      return write(no);
    }

    @Override
    public Page write(long no) {
      Page p = pages.get(no);
      if (p == null) {
        throw new IllegalStateException("page " + no + " is not part of this chain");
      }
      return p;
    }

    @Override
    public Page allocate(PageType type) {
      long no = stream.allocate();
      Page p = new Page(BytesStore.wrap(new byte[pageSize]), 0, pageSize);
      p.format(type, no, table.area());
      pages.put(no, p);
      return p;
    }

    @Override
    public void free(long no) {
      pages.remove(no);
      stream.returnPage(no);
    }
  }
}
