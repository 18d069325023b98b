package dev.idxkit.spark;

import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.loader.input.TpchSchema;
import io.trino.tpch.TpchEntity;
import java.time.LocalDate;
import java.util.Iterator;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * A TPC-H table as a DataFrame, generated on the executors by the same generator {@code idxkit load
 * --tpch} uses (io.trino.tpch, split into parts exactly as the loader splits it), so a Spark job
 * and a load see the same rows. Columns and types follow {@link TpchSchema}; dates are {@code
 * LocalDate} when the session has {@code spark.sql.datetime.java8API.enabled}, else {@code
 * java.sql.Date}.
 */
public final class TpchFrames {
  private TpchFrames() {}

  /** {@code table} at scale factor {@code sf}, generated in {@code parts} partitions. */
  public static Dataset<Row> table(SparkSession spark, TpchSchema table, double sf, int parts) {
    StructType schema = new StructType();
    for (ColumnDef c : table.columns()) {
      schema = schema.add(c.name(), RowMapping.sparkType(c.type()), c.nullable());
    }
    boolean java8 =
        Boolean.parseBoolean(spark.conf().get("spark.sql.datetime.java8API.enabled", "false"));
    return spark
        .range(0, parts, 1, parts)
        .as(Encoders.LONG())
        .flatMap(new Part(table, sf, parts, java8), Encoders.row(schema));
  }

  /** Generates one part (1-based as the generator counts them) as rows. */
  private record Part(TpchSchema table, double sf, int parts, boolean java8)
      implements FlatMapFunction<Long, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Iterator<Row> call(Long part) {
      Iterator<? extends TpchEntity> it = table.generator(sf, (int) (part + 1), parts).iterator();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public Row next() {
          Object[] v = table.toRow(it.next());
          if (!java8) {
            for (int i = 0; i < v.length; i++) {
              if (v[i] instanceof LocalDate d) {
                v[i] = java.sql.Date.valueOf(d);
              }
            }
          }
          return RowFactory.create(v);
        }
      };
    }
  }
}
