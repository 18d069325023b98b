package dev.idxkit.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idxkit.core.testing.Seeds;
import dev.idxkit.crash.TxnWorkload.Delete;
import dev.idxkit.crash.TxnWorkload.DuplicateInsert;
import dev.idxkit.crash.TxnWorkload.Insert;
import dev.idxkit.crash.TxnWorkload.Item;
import dev.idxkit.crash.TxnWorkload.Op;
import dev.idxkit.crash.TxnWorkload.Unit;
import dev.idxkit.crash.TxnWorkload.Update;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The txn workload's model must be exactly what its operations do to a table, or the crash harness
 * would blame the store for the generator's mistakes: replaying each unit's committed operations on
 * the previous rows gives the model's rows (the rolled-back decoys leave no trace), every operation
 * is valid where the child runs it, and two replays of one seed agree.
 */
class TxnWorkloadTest {
  @Test
  void modelIsWhatTheCommittedOperationsDo() {
    long seed = Seeds.seed();
    String why = Seeds.reproduce(seed, getClass());
    TxnWorkload w = new TxnWorkload(seed);
    TreeMap<Long, Item> table = new TreeMap<>();
    int decoys = 0;
    int big = 0;
    int rekeys = 0;
    for (int i = 0; i < 3000; i++) {
      Unit u = w.advance();
      decoys += u.rolledBack().isEmpty() ? 0 : 1;
      big += u.ops().size() > 6 ? 1 : 0;
      for (Op op : u.ops()) {
        if (op instanceof Insert ins) {
          assertThat(table.put(ins.item().id(), ins.item())).as(why).isNull();
        } else if (op instanceof Update up) {
          assertThat(table.remove(up.id())).as(why).isNotNull();
          assertThat(table.put(up.item().id(), up.item())).as(why).isNull();
          rekeys += up.id() != up.item().id() ? 1 : 0;
        } else if (op instanceof Delete d) {
          assertThat(table.remove(d.id())).as(why).isNotNull();
        } else if (op instanceof DuplicateInsert dup) {
          assertThat(table).as(why).containsKey(dup.item().id());
        }
        if (!(op instanceof Delete)) {
          assertThat(itemOf(op).txn()).as(why).isEqualTo(u.n());
        }
      }
      assertThat(table).as(why + " after unit " + u.n()).isEqualTo(w.rows());
      assertThat(u.ledger().rowsAfter()).as(why).isEqualTo(table.size());
      assertThat(u.ledger().ops()).as(why).isEqualTo(u.ops().size());
    }
    // The shapes the campaign relies on do occur (3000 units make each near certain).
    assertThat(List.of(decoys, big, rekeys)).as(why).allMatch(c -> c > 0);
  }

  @Test
  void twoReplaysOfOneSeedAgree() {
    long seed = Seeds.seed();
    TxnWorkload a = new TxnWorkload(seed);
    TxnWorkload b = new TxnWorkload(seed);
    b.advanceTo(500);
    for (int i = 0; i < 500; i++) {
      a.advance();
    }
    assertThat(a.rows()).as(Seeds.reproduce(seed, getClass())).isEqualTo(b.rows());
    assertThat(a.advance()).as(Seeds.reproduce(seed, getClass())).isEqualTo(b.advance());
  }

  private static Item itemOf(Op op) {
    if (op instanceof Insert i) {
      return i.item();
    }
    if (op instanceof Update u) {
      return u.item();
    }
    return ((DuplicateInsert) op).item();
  }
}
