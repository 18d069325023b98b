import dev.idxkit.core.Durability;
import dev.idxkit.core.internal.txn.*;
import dev.idxkit.core.spi.*;
import java.nio.file.*;
import java.util.Map;
public class FreshCkpt {
  public static void main(String[] a) throws Exception {
    Path db = Path.of(a[0]);
    long pages = Long.parseLong(a[1]) * (1 << 20) / Page.DEFAULT_SIZE;
    StoreOptions opts = StoreOptions.defaults().withDurability(Durability.OFF)
        .withCheckpointBytes(1L << 40).withDirtyPageBytes(1L << 40);
    try (Store s = Store.create(db, opts, Map.of(0, "data"), new byte[0])) {
      for (long done = 0; done < pages; ) {
        try (StoreTxn t = s.begin(Durability.OFF)) {
          for (int i = 0; i < 1024 && done < pages; i++, done++) {
            t.pages(0).allocate(PageType.HEAP).putLong(Page.HEADER_SIZE, done);
          }
          t.commit();
        }
      }
      long t0 = System.nanoTime();
      s.checkpoint();
      long t1 = System.nanoTime();
      CheckpointStats c = s.lastCheckpoint();
      System.out.printf("pages %d: checkpoint %.3f s (double write %.3f s, flush %.3f s)%n",
          c.pages(), (t1 - t0) / 1e9, c.doubleWriteNanos() / 1e9, c.flushNanos() / 1e9);
    }
  }
}
