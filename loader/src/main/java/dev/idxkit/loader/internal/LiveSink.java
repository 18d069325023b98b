package dev.idxkit.loader.internal;

import dev.idxkit.core.Database;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.Durability;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.KeyTooLongException;
import dev.idxkit.core.Row;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.loader.input.InputRow;
import dev.idxkit.loader.input.RejectedRow;
import java.util.List;

/**
 * Live mode's sink: each row inserted through a {@link Transaction} into the heap and every active
 * index (OpenEdge's MKEYED path), one transaction per batch.
 *
 * <p>Every commit carries the resume point after its last record ({@link
 * Transaction#setResumePoint}), so the committed rows and the resume point always agree, whatever
 * survives a crash. That leaves durability as the only difference between a batch commit and a
 * checkpoint: batches commit with {@link Durability#OFF} (the log reaches the OS, no fsync - a
 * process kill loses nothing, a power cut may lose the last batches, never half of one), and a
 * {@link #checkpoint} commits with {@link Durability#SYNC}, which fsyncs the log up to it.
 *
 * <p>A row the insert refuses - a duplicate key in a unique index, a key too long, a value that
 * does not fit - becomes a reject; the failed insert changes nothing and the transaction goes on.
 * Memory: the transaction's dirty pages, one batch's worth.
 */
public final class LiveSink implements RowSink {
  private final Database db;
  private final Table table;
  private final String key;
  private Transaction txn;
  private boolean closed;

  private final RowLines lines;

  /**
   * @param lines where each inserted row's input line is recorded, so that a duplicate names the
   *     line of the row kept
   */
  public LiveSink(Database db, Table table, String key, RowLines lines) {
    this.db = db;
    this.table = table;
    this.key = key;
    this.lines = lines;
  }

  @Override
  public void begin(ResumeState start) {
    commit(start, Durability.SYNC);
  }

  @Override
  public RejectedRow append(RecordBatch batch, int i) {
    InputRow row = ((ValueBatch) batch).row(i);
    if (txn == null) {
      txn = db.begin(Durability.OFF);
    }
    try {
      lines.add(txn.insert(table, row.values()), row.line());
      return null;
    } catch (DuplicateKeyException e) {
      return new RejectedRow(
          row.line(),
          null,
          null,
          DuplicateText.reason(e.index(), e.key(), keptLine(e.index(), row.values())),
          row.resumeOffset(),
          row.resumeLine());
    } catch (KeyTooLongException | InvalidInputException e) {
      return new RejectedRow(
          row.line(), null, null, e.getMessage(), row.resumeOffset(), row.resumeLine());
    }
  }

  /** The input line of the row that holds the key {@code values} has in {@code index}. */
  private long keptLine(String index, Object[] values) {
    int[] columns = db.catalog().index(index).columns();
    Object[] key = new Object[columns.length];
    for (int c = 0; c < columns.length; c++) {
      key[c] = values[columns[c]];
    }
    List<Row> kept = txn.lookup(db.index(index), key);
    return kept.isEmpty() ? DuplicateText.UNKNOWN : lines.line(kept.get(0).rid());
  }

  @Override
  public boolean endBatch(ResumeState state) {
    commit(state, Durability.OFF);
    return true;
  }

  @Override
  public void checkpoint(ResumeState state) {
    commit(state, Durability.SYNC);
  }

  @Override
  public void finish(ResumeState last) {
    commit(last, Durability.SYNC);
  }

  @Override
  public void abort() {
    if (txn != null) {
      try {
        txn.rollback();
      } finally {
        txn = null;
      }
    }
  }

  /**
   * Commits the open transaction (if any) with {@code state}. With SYNC the open transaction (begun
   * OFF) commits first, then an almost empty one with SYNC - recording the same state - fsyncs the
   * log up to here, which makes every earlier commit durable too.
   */
  private void commit(ResumeState state, Durability durability) {
    if (txn != null && durability == Durability.SYNC) {
      commit(state, Durability.OFF);
    }
    if (txn == null) {
      txn = db.begin(durability);
    }
    try {
      txn.setResumePoint(key, state == null ? null : state.encode());
      txn.commit();
    } finally {
      Transaction t = txn;
      txn = null;
      t.close();
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      abort();
    }
  }
}
