package dev.idxkit.loader.internal;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.IndexStatus;
import dev.idxkit.core.spi.BulkWrite;
import dev.idxkit.core.spi.Engine;
import dev.idxkit.core.spi.HeapAppender;
import dev.idxkit.core.spi.IndexState;
import dev.idxkit.core.spi.TableState;
import dev.idxkit.loader.input.RejectedRow;

/**
 * The bulk modes' sink: records appended to new heap pages through one {@link BulkWrite} session,
 * made live by one publish per checkpoint.
 *
 * <p>Call order: {@link #open} (starts the session, undoes an interrupted load for a restart, and
 * marks the table's indexes inactive - their trees stop matching the heap with the first appended
 * row), {@link #begin} (publishes the first checkpoint, with the indexes inactive), then appends;
 * each {@link #checkpoint} flushes the page being filled ({@link HeapAppender#flush()}), puts the
 * resume point in the session's meta and publishes: the rows and the resume point become durable in
 * the same meta write. A crash between two publishes leaves the database at the earlier one: pages
 * written since are unreferenced and reused.
 *
 * <p>Memory: the appender's page and the session's write buffers (16 MiB at most in flight).
 */
public final class BulkSink implements RowSink {
  private final Database db;
  private final TableInfo table;
  private final String key;
  private BulkWrite bulk;
  private HeapAppender appender;
  private boolean closed;

  private final RowLines lines;

  /**
   * @param lines where each appended row's input line is recorded, for duplicate-key rejects
   */
  public BulkSink(Database db, TableInfo table, String key, RowLines lines) {
    this.db = db;
    this.table = table;
    this.key = key;
    this.lines = lines;
  }

  /**
   * Starts the session. For a restart ({@code undo} non-null) frees the interrupted load's pages
   * first. Returns the table's state the load starts from.
   */
  public TableState open(ResumeState undo) {
    bulk = Engine.of(db).beginBulk();
    if (undo != null) {
      LoadUndo.undo(bulk, table, undo);
    }
    for (IndexInfo ix : table.indexes()) {
      IndexState s = bulk.meta().index(ix.id());
      bulk.meta().index(ix.id(), new IndexState(s == null ? 0 : s.root(), IndexStatus.INACTIVE));
    }
    appender = new HeapAppender(bulk, table);
    return bulk.meta().table(table.id());
  }

  @Override
  public void begin(ResumeState start) {
    publish(start);
  }

  @Override
  public RejectedRow append(RecordBatch batch, int i) {
    EncodedBatch b = (EncodedBatch) batch;
    int start = b.start(i);
    lines.add(appender.appendRecord(b.data(), start, b.end(i) - start), b.line(i));
    return null;
  }

  @Override
  public boolean endBatch(ResumeState state) {
    return false; // rows become durable only at checkpoints
  }

  @Override
  public void checkpoint(ResumeState state) {
    appender.flush();
    publish(state);
  }

  @Override
  public void finish(ResumeState last) {
    appender.flush();
    publish(last);
    close();
  }

  @Override
  public void abort() {
    // Closing without a publish abandons the unpublished pages; the appender's page goes with them.
    appender = null;
    close();
  }

  private void publish(ResumeState state) {
    bulk.meta().resume(key, state == null ? null : state.encode());
    bulk.publish();
    db.bulkPublished();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (appender != null) {
        appender.close();
      }
    } finally {
      if (bulk != null) {
        bulk.close();
      }
      db.bulkPublished();
    }
  }
}
