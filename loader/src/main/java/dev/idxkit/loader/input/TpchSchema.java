package dev.idxkit.loader.input;

import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.ColumnType;
import dev.idxkit.core.schema.TableDef;
import dev.idxkit.core.schema.TypeKind;
import io.trino.tpch.Customer;
import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.Nation;
import io.trino.tpch.Order;
import io.trino.tpch.Part;
import io.trino.tpch.PartSupplier;
import io.trino.tpch.RandomBoundedInt;
import io.trino.tpch.Region;
import io.trino.tpch.Supplier;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The eight TPC-H tables as {@link TpchSource} generates them (io.trino.tpch 1.2, which follows
 * dbgen): the columns in the order of the TPC-H specification (clause 1.4), their types, and how a
 * generated entity becomes a row. Types: identifiers BIGINT, integers INT, decimals (money,
 * quantities, discounts, taxes) DECIMAL(15,2), fixed and variable text CHAR(n)/VARCHAR(n) as
 * VARCHAR(n), dates DATE; every column NOT NULL.
 *
 * <pre>
 * region   r_regionkey BIGINT, r_name VARCHAR(25), r_comment VARCHAR(152)
 * nation   n_nationkey BIGINT, n_name VARCHAR(25), n_regionkey BIGINT, n_comment VARCHAR(152)
 * supplier s_suppkey BIGINT, s_name VARCHAR(25), s_address VARCHAR(40), s_nationkey BIGINT,
 *          s_phone VARCHAR(15), s_acctbal DECIMAL(15,2), s_comment VARCHAR(101)
 * customer c_custkey BIGINT, c_name VARCHAR(25), c_address VARCHAR(40), c_nationkey BIGINT,
 *          c_phone VARCHAR(15), c_acctbal DECIMAL(15,2), c_mktsegment VARCHAR(10),
 *          c_comment VARCHAR(117)
 * part     p_partkey BIGINT, p_name VARCHAR(55), p_mfgr VARCHAR(25), p_brand VARCHAR(10),
 *          p_type VARCHAR(25), p_size INT, p_container VARCHAR(10), p_retailprice DECIMAL(15,2),
 *          p_comment VARCHAR(23)
 * partsupp ps_partkey BIGINT, ps_suppkey BIGINT, ps_availqty INT, ps_supplycost DECIMAL(15,2),
 *          ps_comment VARCHAR(199)
 * orders   o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus VARCHAR(1),
 *          o_totalprice DECIMAL(15,2), o_orderdate DATE, o_orderpriority VARCHAR(15),
 *          o_clerk VARCHAR(15), o_shippriority INT, o_comment VARCHAR(79)
 * lineitem l_orderkey BIGINT, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INT,
 *          l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2),
 *          l_tax DECIMAL(15,2), l_returnflag VARCHAR(1), l_linestatus VARCHAR(1),
 *          l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR(25),
 *          l_shipmode VARCHAR(10), l_comment VARCHAR(44)
 * </pre>
 *
 * <p>Conversions: the generator's money is in cents ({@code getExtendedPriceInCents()} becomes
 * {@code BigDecimal.valueOf(cents, 2)}), discount and tax in hundredths ({@code
 * getDiscountPercent()} 4 is 0.04), quantity in whole units (17 is 17.00); its int dates are days
 * since 1970-01-01 ({@code LocalDate.ofEpochDay}; checked against its own text form in the tests);
 * keys are longs.
 *
 * <p>Row counts: region 5 and nation 25 at every scale; the others scale linearly from SF 1:
 * supplier 10,000, customer 150,000, part 200,000, partsupp 800,000, orders 1,500,000, lineitem
 * 6,001,215 (1 to 7 lines per order, drawn by the generator; see {@link #rowsInPart}).
 */
public enum TpchSchema {
  REGION(TpchTable.REGION, 5, false, 1),
  NATION(TpchTable.NATION, 25, false, 1),
  SUPPLIER(TpchTable.SUPPLIER, 10_000, true, 1),
  CUSTOMER(TpchTable.CUSTOMER, 150_000, true, 1),
  PART(TpchTable.PART, 200_000, true, 1),
  PARTSUPP(TpchTable.PART_SUPPLIER, 200_000, true, 4),
  ORDERS(TpchTable.ORDERS, 1_500_000, true, 1),
  LINEITEM(TpchTable.LINE_ITEM, 1_500_000, true, 0);

  /**
   * The generator draws each order's line count from this stream (dbgen's seed for O_LCNT,
   * io.trino.tpch's {@code OrderGenerator.createLineCountRandom()}, package-private there):
   * replaying it counts an order range's lineitems without generating them. The tests check the
   * counts against the generator's rows and the spec's 6,001,215 at SF 1.
   */
  private static final long LINE_COUNT_SEED = 1434868289L;

  private static final int MAX_LINES_PER_ORDER = 7;

  private final TpchTable<?> generatorTable;
  private final int unitsAtScaleOne;
  private final boolean scaled;
  private final int rowsPerUnit;
  private final List<ColumnDef> columns;
  private final Function<TpchEntity, Object[]> toRow;

  TpchSchema(TpchTable<?> generatorTable, int unitsAtScaleOne, boolean scaled, int rowsPerUnit) {
    this.generatorTable = generatorTable;
    this.unitsAtScaleOne = unitsAtScaleOne;
    this.scaled = scaled;
    this.rowsPerUnit = rowsPerUnit;
    this.columns = columnsOf(generatorTable.getTableName());
    this.toRow = converterOf(generatorTable.getTableName());
  }

  /** The lower-case table name: {@code lineitem}, {@code orders}, ... */
  public String tableName() {
    return generatorTable.getTableName();
  }

  /** The table by name, ignoring case. */
  public static TpchSchema of(String name) {
    for (TpchSchema t : values()) {
      if (t.tableName().equalsIgnoreCase(name.strip())) {
        return t;
      }
    }
    throw new InvalidInputException(
        "TPC-H table (--tpch) : \""
            + name
            + "\" (expected: one of region, nation, supplier, customer, part, partsupp, orders,"
            + " lineitem)");
  }

  public List<ColumnDef> columns() {
    return columns;
  }

  /** This table as a {@link TableDef} (id and area as given), for tests and defaults. */
  public TableDef tableDef(int id, int areaId) {
    return new TableDef(id, tableName(), columns, areaId);
  }

  /**
   * Generation units at a scale factor: the rows the generator splits into parts (orders for
   * lineitem, parts for partsupp). Computed as io.trino.tpch does.
   */
  long units(double scaleFactor) {
    return scaled ? (long) (unitsAtScaleOne * scaleFactor) : unitsAtScaleOne;
  }

  /** Rows in the whole table at a scale factor. */
  public long rowCount(double scaleFactor) {
    return rowsInPart(scaleFactor, 1, 1);
  }

  /** A rough rows-per-unit figure, to size parts: lineitem averages 4 lines per order. */
  int approxRowsPerUnit() {
    return rowsPerUnit == 0 ? 4 : rowsPerUnit;
  }

  /** Units in part {@code part} (1-based) of {@code partCount}, as the generator splits them. */
  long unitsInPart(double scaleFactor, int part, int partCount) {
    if (!scaled) {
      return part == 1 ? unitsAtScaleOne : 0;
    }
    return GenerateUtils.calculateRowCount(unitsAtScaleOne, scaleFactor, part, partCount);
  }

  /**
   * Rows the generator yields for part {@code part} (1-based) of {@code partCount}. For lineitem
   * this replays the generator's line-count random stream over the part's orders: exact, and
   * thousands of times cheaper than generating the rows.
   */
  long rowsInPart(double scaleFactor, int part, int partCount) {
    long units = unitsInPart(scaleFactor, part, partCount);
    if (rowsPerUnit > 0) {
      return units * rowsPerUnit;
    }
    long first = GenerateUtils.calculateStartIndex(unitsAtScaleOne, scaleFactor, part, partCount);
    RandomBoundedInt lineCounts = new RandomBoundedInt(LINE_COUNT_SEED, 1, MAX_LINES_PER_ORDER);
    lineCounts.advanceRows(first);
    long rows = 0;
    for (long i = 0; i < units; i++) {
      rows += lineCounts.nextValue();
      lineCounts.rowFinished();
    }
    return rows;
  }

  /**
   * The generator for one part (1-based), yielding entities in row order. Public for the Spark
   * module, which generates the parts of a DataFrame on its executors.
   */
  public Iterable<? extends TpchEntity> generator(double scaleFactor, int part, int partCount) {
    return generatorTable.createGenerator(scaleFactor, part, partCount);
  }

  /** A generated entity as a row in {@link #columns()} order. */
  public Object[] toRow(TpchEntity e) {
    return toRow.apply(e);
  }

  private static BigDecimal cents(long cents) {
    return BigDecimal.valueOf(cents, 2);
  }

  private static LocalDate date(int epochDay) {
    return LocalDate.ofEpochDay(epochDay);
  }

  private static Function<TpchEntity, Object[]> converterOf(String table) {
    switch (table) {
      case "region":
        return e -> {
          Region r = (Region) e;
          return new Object[] {r.getRegionKey(), r.getName(), r.getComment()};
        };
      case "nation":
        return e -> {
          Nation n = (Nation) e;
          return new Object[] {n.getNationKey(), n.getName(), n.getRegionKey(), n.getComment()};
        };
      case "supplier":
        return e -> {
          Supplier s = (Supplier) e;
          return new Object[] {
            s.getSupplierKey(),
            s.getName(),
            s.getAddress(),
            s.getNationKey(),
            s.getPhone(),
            cents(s.getAccountBalanceInCents()),
            s.getComment()
          };
        };
      case "customer":
        return e -> {
          Customer c = (Customer) e;
          return new Object[] {
            c.getCustomerKey(),
            c.getName(),
            c.getAddress(),
            c.getNationKey(),
            c.getPhone(),
            cents(c.getAccountBalanceInCents()),
            c.getMarketSegment(),
            c.getComment()
          };
        };
      case "part":
        return e -> {
          Part p = (Part) e;
          return new Object[] {
            p.getPartKey(),
            p.getName(),
            p.getManufacturer(),
            p.getBrand(),
            p.getType(),
            p.getSize(),
            p.getContainer(),
            cents(p.getRetailPriceInCents()),
            p.getComment()
          };
        };
      case "partsupp":
        return e -> {
          PartSupplier ps = (PartSupplier) e;
          return new Object[] {
            ps.getPartKey(),
            ps.getSupplierKey(),
            ps.getAvailableQuantity(),
            cents(ps.getSupplyCostInCents()),
            ps.getComment()
          };
        };
      case "orders":
        return e -> {
          Order o = (Order) e;
          return new Object[] {
            o.getOrderKey(),
            o.getCustomerKey(),
            String.valueOf(o.getOrderStatus()),
            cents(o.getTotalPriceInCents()),
            date(o.getOrderDate()),
            o.getOrderPriority(),
            o.getClerk(),
            o.getShipPriority(),
            o.getComment()
          };
        };
      case "lineitem":
        return e -> {
          LineItem l = (LineItem) e;
          return new Object[] {
            l.getOrderKey(),
            l.getPartKey(),
            l.getSupplierKey(),
            l.getLineNumber(),
            cents(l.getQuantity() * 100),
            cents(l.getExtendedPriceInCents()),
            cents(l.getDiscountPercent()),
            cents(l.getTaxPercent()),
            l.getReturnFlag(),
            l.getStatus(),
            date(l.getShipDate()),
            date(l.getCommitDate()),
            date(l.getReceiptDate()),
            l.getShipInstructions(),
            l.getShipMode(),
            l.getComment()
          };
        };
      default:
        throw new AssertionError(table);
    }
  }

  private static List<ColumnDef> columnsOf(String table) {
    String spec;
    switch (table) {
      case "region":
        spec = "r_regionkey id, r_name v25, r_comment v152";
        break;
      case "nation":
        spec = "n_nationkey id, n_name v25, n_regionkey id, n_comment v152";
        break;
      case "supplier":
        spec =
            "s_suppkey id, s_name v25, s_address v40, s_nationkey id, s_phone v15, s_acctbal dec,"
                + " s_comment v101";
        break;
      case "customer":
        spec =
            "c_custkey id, c_name v25, c_address v40, c_nationkey id, c_phone v15, c_acctbal dec,"
                + " c_mktsegment v10, c_comment v117";
        break;
      case "part":
        spec =
            "p_partkey id, p_name v55, p_mfgr v25, p_brand v10, p_type v25, p_size int,"
                + " p_container v10, p_retailprice dec, p_comment v23";
        break;
      case "partsupp":
        spec = "ps_partkey id, ps_suppkey id, ps_availqty int, ps_supplycost dec, ps_comment v199";
        break;
      case "orders":
        spec =
            "o_orderkey id, o_custkey id, o_orderstatus v1, o_totalprice dec, o_orderdate date,"
                + " o_orderpriority v15, o_clerk v15, o_shippriority int, o_comment v79";
        break;
      case "lineitem":
        spec =
            "l_orderkey id, l_partkey id, l_suppkey id, l_linenumber int, l_quantity dec,"
                + " l_extendedprice dec, l_discount dec, l_tax dec, l_returnflag v1,"
                + " l_linestatus v1, l_shipdate date, l_commitdate date, l_receiptdate date,"
                + " l_shipinstruct v25, l_shipmode v10, l_comment v44";
        break;
      default:
        throw new AssertionError(table);
    }
    List<ColumnDef> columns = new ArrayList<>();
    for (String c : spec.split(",")) {
      String[] nameType = c.strip().split(" ");
      columns.add(new ColumnDef(nameType[0], type(nameType[1]), false));
    }
    return List.copyOf(columns);
  }

  private static ColumnType type(String shorthand) {
    switch (shorthand.toLowerCase(Locale.ROOT)) {
      case "id":
        return ColumnType.of(TypeKind.BIGINT);
      case "int":
        return ColumnType.of(TypeKind.INT);
      case "dec":
        return ColumnType.decimal(15, 2);
      case "date":
        return ColumnType.of(TypeKind.DATE);
      default:
        return ColumnType.varchar(Integer.parseInt(shorthand.substring(1)));
    }
  }
}
