package dev.idxkit.jmh.experiments;

import dev.idxkit.core.schema.TableDef;
import dev.idxkit.loader.LoadInput;
import dev.idxkit.loader.input.Batch;
import dev.idxkit.loader.input.Chunk;
import dev.idxkit.loader.input.InputRecord;
import dev.idxkit.loader.input.InputRow;
import dev.idxkit.loader.input.ResumePoint;
import dev.idxkit.loader.input.RowSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Rows made by a function of their row number, as a loader input: the loader's parallel parse
 * threads generate the chunks, and its checkpoints and resume work as for the TPC-H generator
 * (positions count rows: resume point {@code (rows delivered, rows delivered + 1)}).
 *
 * <p>The function must be pure - row {@code i} the same whatever thread asks and however often -
 * which is what lets chunks generate concurrently and a resumed load continue exactly. The identity
 * a checkpoint records is the {@code identity} string given here (it should name everything the
 * rows depend on: sizes and seed).
 */
final class GeneratedInput implements LoadInput {
  /** Rows per chunk: about a loader chunk's worth of work on one parse thread. */
  static final int ROWS_PER_CHUNK = 16_384;

  private final String name;
  private final String identity;
  private final long rows;
  private final LongFunction<Object[]> row;

  /**
   * @param rows rows {@code 0 .. rows - 1}
   * @param row the values of row {@code i}, in the target table's column order
   */
  GeneratedInput(String name, String identity, long rows, LongFunction<Object[]> row) {
    this.name = name;
    this.identity = identity;
    this.rows = rows;
    this.row = row;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String identity() {
    return identity;
  }

  @Override
  public boolean positionsAreBytes() {
    return false;
  }

  @Override
  public long size() {
    return rows;
  }

  @Override
  public RowSource open(TableDef table, ResumePoint from) {
    long start = from == null ? 0 : from.offset();
    if (start > rows) {
      throw new IllegalArgumentException(
          name + ": resume point after row " + start + " (expected: <= " + rows + ")");
    }
    return new RowSource() {
      private long next = start;
      private long chunks;

      @Override
      public TableDef table() {
        return table;
      }

      @Override
      public String inputName() {
        return name;
      }

      @Override
      public Chunk nextChunk() {
        if (next >= rows) {
          return null;
        }
        long first = next;
        long end = Math.min(rows, first + ROWS_PER_CHUNK);
        next = end;
        long index = chunks++;
        return new Chunk() {
          @Override
          public long index() {
            return index;
          }

          @Override
          public ResumePoint start() {
            return new ResumePoint(first, first + 1);
          }

          @Override
          public Batch parse() {
            List<InputRecord> out = new ArrayList<>((int) (end - first));
            for (long i = first; i < end; i++) {
              out.add(new InputRow(row.apply(i), i + 1, i + 1, i + 2));
            }
            return new Batch(index, out, out.size(), new ResumePoint(end, end + 1));
          }
        };
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public String toString() {
    return name;
  }
}
