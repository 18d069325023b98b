package dev.idxkit.loader.input;

import dev.idxkit.core.IdxkitException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.Values;
import dev.idxkit.core.schema.Values.InvalidValueException;
import io.trino.tpch.TpchEntity;
import java.util.ArrayList;
import java.util.List;

/**
 * The TPC-H generator (io.trino.tpch 1.2) as a {@link RowSource}: rows of one table at a scale
 * factor, columns and types as {@link TpchSchema} documents.
 *
 * <h2>Parts, row numbers and resuming</h2>
 *
 * The generator splits a table into parts ({@code new LineItemGenerator(sf, part, partCount)});
 * each part generates on its own and the parts concatenated are the whole table, in the same order
 * whatever the part count. Each chunk here is one part, sized to about {@link
 * TpchOptions#rowsPerChunk()} rows, so chunks generate in parallel like file chunks parse.
 *
 * <p>A row's input position is its 1-based row number in the whole table, and its resume point is
 * the number of rows up to and including it. To number a part's rows the cutter needs the row count
 * of every part before it: exact by arithmetic for every table but lineitem, whose orders have 1 to
 * 7 lines; for lineitem {@link TpchSchema#rowsInPart} replays the generator's line-count random
 * stream over the part's orders (about a thousandth of the cost of generating them). Opening at a
 * resume point skips whole parts by their counts and drops the leading rows of the part it lands
 * in.
 *
 * <h2>The target table</h2>
 *
 * Rows are produced in the column order of the target table the caller passes (the table created
 * from DDL), matched by column name. Where the target declares another type than {@link TpchSchema}
 * (say {@code l_quantity INT}), values go through {@link Values#coerce}; a value that does not fit
 * is a rejected row, never a rounded one.
 */
public final class TpchSource implements RowSource {
  private final TpchSchema schema;
  private final TpchOptions options;
  private final TableDef target;
  private final int[] targetIndex;
  private final ColumnDef[] coerceTo;
  private final int partCount;
  private int nextPart;
  private long nextRow;
  private long skipInNextPart;
  private long chunks;

  private TpchSource(
      TpchSchema schema,
      TpchOptions options,
      TableDef target,
      int[] targetIndex,
      ColumnDef[] coerceTo) {
    this.schema = schema;
    this.options = options;
    this.target = target;
    this.targetIndex = targetIndex;
    this.coerceTo = coerceTo;
    long units = schema.units(options.scaleFactor());
    long wanted =
        (units * schema.approxRowsPerUnit() + options.rowsPerChunk() - 1) / options.rowsPerChunk();
    this.partCount = (int) Math.max(1, Math.min(Math.min(wanted, units), Integer.MAX_VALUE));
    this.nextPart = 1;
  }

  /**
   * Opens {@code schema}'s generator from its first row; {@code target} null means {@link
   * TpchSchema#tableDef}.
   */
  public static TpchSource open(TpchSchema schema, TpchOptions options, TableDef target) {
    return open(schema, options, target, null);
  }

  /**
   * Opens {@code schema}'s generator at {@code from} (a resume point it handed out), or at its
   * first row.
   *
   * @param target the table to produce rows for; its columns must be exactly the TPC-H table's (by
   *     name, any order); null for {@link TpchSchema#tableDef}
   * @throws InvalidInputException if the target's columns differ from the TPC-H table's, or {@code
   *     from} lies past the table's end
   */
  public static TpchSource open(
      TpchSchema schema, TpchOptions options, TableDef target, ResumePoint from) {
    TableDef t = target == null ? schema.tableDef(0, 0) : target;
    List<ColumnDef> generated = schema.columns();
    int[] targetIndex = new int[generated.size()];
    ColumnDef[] coerceTo = new ColumnDef[generated.size()];
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < generated.size(); i++) {
      int j = t.columnIndex(generated.get(i).name());
      if (j < 0) {
        missing.add(generated.get(i).name());
        continue;
      }
      targetIndex[i] = j;
      ColumnDef col = t.columns().get(j);
      coerceTo[i] = col.type().equals(generated.get(i).type()) ? null : col;
    }
    if (!missing.isEmpty() || t.columns().size() != generated.size()) {
      throw new InvalidInputException(
          "table "
              + t.name()
              + " does not match TPC-H "
              + schema.tableName()
              + ": "
              + (missing.isEmpty() ? "" : "it lacks " + String.join(", ", missing) + "; ")
              + "expected exactly the columns "
              + String.join(", ", generated.stream().map(ColumnDef::name).toList()));
    }
    TpchSource source = new TpchSource(schema, options, t, targetIndex, coerceTo);
    if (from != null) {
      source.skipTo(from);
    }
    return source;
  }

  private void skipTo(ResumePoint from) {
    if (from.line() != from.offset() + 1) {
      throw new InvalidInputException(
          inputName()
              + ": resume point "
              + from
              + " (expected: line = offset + 1, as the generator hands them out)");
    }
    while (nextPart <= partCount) {
      long rows = schema.rowsInPart(options.scaleFactor(), nextPart, partCount);
      if (nextRow + rows > from.offset()) {
        break;
      }
      nextRow += rows;
      nextPart++;
    }
    if (nextPart > partCount && nextRow != from.offset()) {
      throw new InvalidInputException(
          inputName()
              + ": resume point after row "
              + from.offset()
              + ", but the table has "
              + nextRow
              + " rows");
    }
    skipInNextPart = from.offset() - nextRow;
  }

  @Override
  public TableDef table() {
    return target;
  }

  @Override
  public String inputName() {
    return "tpch " + schema.tableName() + " sf=" + options.scaleFactor();
  }

  /** Parts the table is generated in (one chunk each). */
  public int partCount() {
    return partCount;
  }

  @Override
  public Chunk nextChunk() {
    if (nextPart > partCount) {
      return null;
    }
    int part = nextPart++;
    long rows = schema.rowsInPart(options.scaleFactor(), part, partCount);
    Chunk chunk = new PartChunk(chunks++, part, nextRow, skipInNextPart, rows);
    nextRow += rows;
    skipInNextPart = 0;
    return chunk;
  }

  /**
   * One generator part: rows {@code firstRow + 1 .. firstRow + rows}, the first {@code skip}
   * dropped.
   */
  private final class PartChunk implements Chunk {
    private final long index;
    private final int part;
    private final long firstRow;
    private final long skip;
    private final long rows;

    PartChunk(long index, int part, long firstRow, long skip, long rows) {
      this.index = index;
      this.part = part;
      this.firstRow = firstRow;
      this.skip = skip;
      this.rows = rows;
    }

    @Override
    public long index() {
      return index;
    }

    @Override
    public ResumePoint start() {
      return new ResumePoint(firstRow + skip, firstRow + skip + 1);
    }

    @Override
    public Batch parse() {
      List<InputRecord> out = new ArrayList<>((int) Math.min(rows - skip, 1 << 20));
      int delivered = 0;
      long row = firstRow;
      for (TpchEntity e : schema.generator(options.scaleFactor(), part, partCount)) {
        row++;
        if (row <= firstRow + skip) {
          continue;
        }
        InputRecord r = toRecord(schema.toRow(e), row);
        out.add(r);
        if (r instanceof InputRow) {
          delivered++;
        }
      }
      if (row != firstRow + rows) {
        throw new IdxkitException(
            inputName()
                + " part "
                + part
                + "/"
                + partCount
                + ": generated "
                + (row - firstRow)
                + " rows, counted "
                + rows
                + " (internal error: the row count replay disagrees with the generator)");
      }
      return new Batch(index, out, delivered, new ResumePoint(row, row + 1));
    }
  }

  private InputRecord toRecord(Object[] generated, long row) {
    Object[] values = new Object[generated.length];
    for (int i = 0; i < generated.length; i++) {
      Object v = generated[i];
      if (coerceTo[i] != null) {
        try {
          v = Values.coerce(coerceTo[i], v);
        } catch (InvalidValueException e) {
          return new RejectedRow(row, e.column(), String.valueOf(v), e.reason(), row, row + 1);
        }
      }
      values[targetIndex[i]] = v;
    }
    return new InputRow(values, row, row, row + 1);
  }

  /** Nothing to release: the generator holds no files. */
  @Override
  public void close() {}
}
