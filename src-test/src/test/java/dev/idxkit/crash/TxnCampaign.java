package dev.idxkit.crash;

import dev.idxkit.core.Database;
import dev.idxkit.core.Database.DatabaseOptions;
import dev.idxkit.core.DuplicateKeyException;
import dev.idxkit.core.Durability;
import dev.idxkit.core.Index;
import dev.idxkit.core.Row;
import dev.idxkit.core.RowCursor;
import dev.idxkit.core.Table;
import dev.idxkit.core.Transaction;
import dev.idxkit.crash.TxnWorkload.Delete;
import dev.idxkit.crash.TxnWorkload.DuplicateInsert;
import dev.idxkit.crash.TxnWorkload.Insert;
import dev.idxkit.crash.TxnWorkload.Item;
import dev.idxkit.crash.TxnWorkload.LedgerRow;
import dev.idxkit.crash.TxnWorkload.Op;
import dev.idxkit.crash.TxnWorkload.Unit;
import dev.idxkit.crash.TxnWorkload.Update;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Campaigns {@code txn} and {@code checkpoint}: SYNC transactions of {@link TxnWorkload} on a table
 * with a unique, a composite and a string index, each acknowledged after {@code commit()} returns.
 *
 * <p>{@code checkpoint} runs the same units on 4 KiB pages with the smallest automatic checkpoint
 * bounds (1 MiB of log and 1 MiB of dirty pages: from half of either, a checkpoint starts beside
 * the commits every few dozen units, on its own thread, while commits go to the other log segment)
 * and an explicit {@code db.checkpoint()} after about one unit in four, announced with {@code PHASE
 * checkpoint}, so kills land while pages are double-written and written home, while the meta slot
 * is written, while the log segments switch and are emptied, and while commits run beside all of
 * that. Its change buffers (the composite and the string index are buffered) are bounded at 64 KiB,
 * so they are merged into their trees every few units as well, and kills land in those merges; in
 * {@code txn} they stay below the default bound: each recovery carries them into the log segment
 * its checkpoint starts, and a close merges them.
 *
 * <p>Verification: the ledger holds exactly units 1..u (that is how many units committed), each
 * ledger row and every {@code item} row equals the replay of units 1..u, every index scans to
 * exactly the model's rows, and point lookups through the unique index find what the model has.
 */
final class TxnCampaign implements CrashCampaign {
  private final boolean checkpoints;

  private TxnCampaign(boolean checkpoints) {
    this.checkpoints = checkpoints;
  }

  static TxnCampaign transactions() {
    return new TxnCampaign(false);
  }

  static TxnCampaign checkpoints() {
    return new TxnCampaign(true);
  }

  @Override
  public String name() {
    return checkpoints ? "checkpoint" : "txn";
  }

  @Override
  public DatabaseOptions options() {
    DatabaseOptions o = DatabaseOptions.defaults().withDurability(Durability.SYNC);
    return checkpoints
        ? o.withPageSize(4096)
            .withCheckpointBytes(1 << 20)
            .withDirtyPageBytes(1 << 20)
            .withChangeBufferBytes(64 << 10)
        : o;
  }

  @Override
  public int maxAcksBeforeKill() {
    return 40;
  }

  @Override
  public void create(Path dir) {
    try (Database db = Database.create(dir, options())) {
      db.execute(TxnWorkload.DDL, "TxnWorkload.DDL");
    }
  }

  @Override
  public void work(Database db, long seed, ChildLine.Out out) {
    Table item = db.table("item");
    Table ledger = db.table("ledger");
    Index pk = db.index("item_pk");
    TxnWorkload w = new TxnWorkload(seed);
    w.advanceTo(ledger.rowCount());
    out.ready(w.units());
    while (true) {
      Unit u = w.advance();
      out.begin(u.n());
      if (!u.rolledBack().isEmpty()) {
        out.phase("rollback");
        try (Transaction tx = db.begin(Durability.SYNC)) {
          run(tx, item, pk, u.rolledBack());
          tx.insert(ledger, u.ledger().values());
          tx.rollback();
        }
        out.phase("unit");
      }
      try (Transaction tx = db.begin(Durability.SYNC)) {
        run(tx, item, pk, u.ops());
        tx.insert(ledger, u.ledger().values());
        tx.commit();
      }
      out.ack(u.n());
      if (checkpoints && u.checkpointAfter()) {
        out.phase("checkpoint");
        db.checkpoint();
      }
    }
  }

  private static void run(Transaction tx, Table item, Index pk, List<Op> ops) {
    for (Op op : ops) {
      if (op instanceof Insert i) {
        tx.insert(item, i.item().values());
      } else if (op instanceof Update up) {
        tx.update(item, ridOf(tx, pk, up.id()), up.item().values());
      } else if (op instanceof Delete d) {
        if (!tx.delete(item, ridOf(tx, pk, d.id()))) {
          throw new IllegalStateException("delete of id " + d.id() + " found no row");
        }
      } else if (op instanceof DuplicateInsert dup) {
        try {
          tx.insert(item, dup.item().values());
          throw new IllegalStateException("insert of existing id " + dup.item().id() + " worked");
        } catch (DuplicateKeyException expected) {
          // the statement changed nothing; the transaction goes on
        }
      }
    }
  }

  private static long ridOf(Transaction tx, Index pk, long id) {
    List<Row> rows = tx.lookup(pk, id);
    if (rows.size() != 1) {
      throw new IllegalStateException(
          "id " + id + ": the unique index finds " + rows.size() + " rows, the model 1");
    }
    return rows.get(0).rid();
  }

  @Override
  public Model model(long seed) {
    return new TxnModel(seed);
  }

  /** The parent's replay of the units and the comparison with a reopened database. */
  private static final class TxnModel implements Model {
    private final TxnWorkload w;
    private final SplittableRandom probes;

    TxnModel(long seed) {
      this.w = new TxnWorkload(seed);
      this.probes = new SplittableRandom(seed ^ 0x5DEECE66DL);
    }

    @Override
    public long unitsIn(Database db) {
      List<Long> txns = new ArrayList<>();
      try (RowCursor c = db.table("ledger").scan()) {
        c.forEachRemaining(r -> txns.add((Long) r.get(0)));
      }
      txns.sort(null);
      for (int i = 0; i < txns.size(); i++) {
        if (txns.get(i) != i + 1) {
          throw new AssertionError(
              "ledger is not units 1.."
                  + txns.size()
                  + ": position "
                  + i
                  + " holds unit "
                  + txns.get(i)
                  + " (around: "
                  + txns.subList(Math.max(0, i - 3), Math.min(txns.size(), i + 3))
                  + ")");
        }
      }
      return txns.size();
    }

    @Override
    public long verify(Database db, long units) {
      w.advanceTo(units);
      Diffs diffs = new Diffs();
      try (RowCursor c = db.table("ledger").scan()) {
        while (c.hasNext()) {
          Object[] v = c.next().values();
          LedgerRow want = w.ledger((Long) v[0]);
          LedgerRow got = new LedgerRow((Long) v[0], (Integer) v[1], (Long) v[2]);
          if (!want.equals(got)) {
            diffs.add("ledger row " + got + ", model " + want);
          }
        }
      }
      TreeMap<Long, Item> model = w.rows();
      Map<Long, Item> seen = new TreeMap<>();
      try (RowCursor c = db.table("item").scan()) {
        while (c.hasNext()) {
          Item got = Item.of(c.next().values());
          Item want = model.get(got.id());
          if (seen.put(got.id(), got) != null) {
            diffs.add("id " + got.id() + " is in the heap twice");
          } else if (want == null) {
            diffs.add("extra row " + got + " (unit " + got.txn() + ")");
          } else if (!want.equals(got)) {
            diffs.add("row " + got + ", model " + want);
          }
        }
      }
      for (Item want : model.values()) {
        if (!seen.containsKey(want.id())) {
          diffs.add("missing row " + want + " (last written by unit " + want.txn() + ")");
        }
      }
      diffs.throwIfAny("after units 1.." + units);
      checkIndexes(db, model);
      return model.size() + units;
    }

    /** Every index scans to exactly the model's rows; the unique index finds ids and non-ids. */
    private void checkIndexes(Database db, TreeMap<Long, Item> model) {
      List<Long> ids = new ArrayList<>(model.keySet());
      for (String name : List.of("item_pk", "item_grp_seq", "item_name")) {
        List<Long> got = new ArrayList<>();
        try (RowCursor c = db.index(name).scan()) {
          c.forEachRemaining(r -> got.add((Long) r.get(0)));
        }
        if (name.equals("item_pk")) {
          if (!got.equals(ids)) {
            throw new AssertionError("item_pk scans " + got.size() + " ids, model " + ids.size());
          }
        } else {
          got.sort(null);
          if (!got.equals(ids)) {
            throw new AssertionError(name + " scans " + got.size() + " rows, model " + ids.size());
          }
        }
      }
      Index pk = db.index("item_pk");
      for (int i = 0; i < 40 && !ids.isEmpty(); i++) {
        long id = ids.get(probes.nextInt(ids.size())) + (i % 4 == 3 ? 1 : 0);
        List<Row> found = pk.get(id);
        Item want = model.get(id);
        Item got = found.size() == 1 ? Item.of(found.get(0).values()) : null;
        if (found.size() > 1 || !Objects.equals(want, got)) {
          throw new AssertionError("item_pk.get(" + id + ") = " + found + ", model " + want);
        }
      }
    }
  }

  /** The first few differences between a database and its model, for one assertion message. */
  static final class Diffs {
    private static final int SHOWN = 8;
    private final List<String> shown = new ArrayList<>();
    private int count;

    void add(String d) {
      if (count++ < SHOWN) {
        shown.add(d);
      }
    }

    void throwIfAny(String where) {
      if (count > 0) {
        throw new AssertionError(
            count + " differences " + where + ":\n  " + String.join("\n  ", shown));
      }
    }
  }
}
