package dev.idxkit.jmh.experiments;

import dev.idxkit.core.Durability;
import dev.idxkit.core.page.Page;
import dev.idxkit.core.page.PageType;
import dev.idxkit.core.txn.CheckpointStats;
import dev.idxkit.core.txn.Store;
import dev.idxkit.core.txn.StoreOptions;
import dev.idxkit.core.txn.StoreTxn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The durability experiment: how many commits per second the write-ahead log sustains, and how
 * close a checkpoint's flush comes to the disk's sequential write bandwidth.
 *
 * <p>Commits: each transaction rewrites two random pages of a 1,000-page table, for {@code seconds}
 * per configuration, with 1 and 2 writer threads under SYNC (fsync per commit, shared by group
 * commit) and ASYNC. Checkpoint: {@code mb} MiB of committed pages are made in the log with
 * durability OFF, then one checkpoint copies them home and is timed; in the same run the same
 * number of bytes is written sequentially to a new file in the same directory with 1 MiB writes and
 * one fsync, and the ratio printed. Target: checkpoint at >= 90% of the sequential figure.
 *
 * <p>Run: {@code idxkit bench durability [--dir D] [--seconds 3] [--mb 256]}, or {@code java -cp
 * jmh/target/benchmarks.jar dev.idxkit.jmh.experiments.DurabilityBench DIR SECONDS MB}.
 */
public final class DurabilityBench {
  private DurabilityBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/bench-durability");
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int mb = args.length > 2 ? Integer.parseInt(args[2]) : 256;
    run(dir, seconds, mb);
  }

  public static void run(Path dir, int seconds, int mb) throws Exception {
    deleteTree(dir);
    Files.createDirectories(dir);
    System.out.printf(
        "durability bench in %s (%d s per commit config, %d MiB checkpoint)%n", dir, seconds, mb);
    System.out.printf("%-8s %-8s %12s%n", "mode", "writers", "commits/s");
    for (Durability d : new Durability[] {Durability.SYNC, Durability.ASYNC}) {
      for (int writers : new int[] {1, 2}) {
        Path db = dir.resolve("commits-" + d + "-" + writers);
        double rate = commits(db, d, writers, seconds);
        System.out.printf("%-8s %-8d %12.0f%n", d.name().toLowerCase(), writers, rate);
        deleteTree(db);
      }
    }
    checkpoint(dir, mb);
  }

  static double commits(Path db, Durability d, int writers, int seconds) throws Exception {
    StoreOptions opts = StoreOptions.defaults().withDurability(d);
    try (Store s = Store.create(db, opts, Map.of(0, "data"), new byte[0])) {
      long[] pages = new long[1000];
      try (StoreTxn t = s.begin(Durability.OFF)) {
        for (int i = 0; i < pages.length; i++) {
          pages[i] = t.pages(0).allocate(PageType.HEAP).pageNo();
        }
        t.commit();
      }
      s.checkpoint();
      AtomicLong done = new AtomicLong();
      long end = System.nanoTime() + seconds * 1_000_000_000L;
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        SplittableRandom r = new SplittableRandom(w);
        Thread th =
            new Thread(
                () -> {
                  while (System.nanoTime() < end) {
                    try (StoreTxn t = s.begin(d)) {
                      for (int k = 0; k < 2; k++) {
                        Page p = t.pages(0).write(pages[r.nextInt(pages.length)]);
                        p.putLong(Page.HEADER_SIZE, p.getLong(Page.HEADER_SIZE) + 1);
                      }
                      t.commit();
                    }
                    done.incrementAndGet();
                  }
                },
                "bench-writer-" + w);
        threads.add(th);
        th.start();
      }
      for (Thread th : threads) {
        th.join();
      }
      return done.get() / (double) seconds;
    }
  }

  static void checkpoint(Path dir, int mb) throws IOException {
    Path db = dir.resolve("checkpoint");
    int pageSize = Page.DEFAULT_SIZE;
    long pages = (long) mb * (1 << 20) / pageSize;
    double ckptSeconds;
    StoreOptions opts =
        StoreOptions.defaults().withDurability(Durability.OFF).withCheckpointBytes(1L << 40);
    try (Store s = Store.create(db, opts, Map.of(0, "data"), new byte[0])) {
      for (long done = 0; done < pages; ) {
        try (StoreTxn t = s.begin(Durability.OFF)) {
          for (int i = 0; i < 1024 && done < pages; i++, done++) {
            t.pages(0).allocate(PageType.HEAP).putLong(Page.HEADER_SIZE, done);
          }
          t.commit();
        }
      }
      s.checkpoint();
      CheckpointStats c = s.lastCheckpoint();
      ckptSeconds = c.flushNanos() / 1e9;
      System.out.printf(
          "checkpoint phases: log fsync %.2f s, flush %.2f s, meta+reset %.3f s%n",
          c.walSyncNanos() / 1e9, ckptSeconds, c.metaNanos() / 1e9);
    }
    long bytes = pages * pageSize;
    Path seq = dir.resolve("sequential.dat");
    long t0 = System.nanoTime();
    try (FileChannel ch =
        FileChannel.open(seq, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
      for (long off = 0; off < bytes; off += b.capacity()) {
        b.clear();
        while (b.hasRemaining()) {
          ch.write(b, off + b.position());
        }
      }
      ch.force(false);
    }
    double seqSeconds = (System.nanoTime() - t0) / 1e9;
    Files.delete(seq);
    deleteTree(db);
    double ckptMb = bytes / 1048576.0 / ckptSeconds;
    double seqMb = bytes / 1048576.0 / seqSeconds;
    System.out.printf(
        "checkpoint flush: %d MiB home in %.2f s = %.0f MiB/s; sequential write: %.2f s = %.0f MiB/s;"
            + " ratio %.2f (target >= 0.90)%n",
        mb, ckptSeconds, ckptMb, seqSeconds, seqMb, ckptMb / seqMb);
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (var walk = Files.walk(p)) {
      for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
