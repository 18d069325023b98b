package dev.idxkit.idxbuild.sort;

import dev.idxkit.idxbuild.temp.TempSpace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;

/**
 * Reduces a sort group's runs to at most the merge fan-in ({@code -TM}) by merging some of them
 * into new runs, so the final pass, which the orchestrator streams straight into the tree builder,
 * can merge everything that is left at once. Not responsible for that final pass.
 *
 * <p>Call order: {@code new MultiPassMerge(space, group, settings, prefetchExecutor)}; {@link
 * #reduce(List)} once per group; use {@link Result#runs()} for the final merge.
 *
 * <p>Schedule: smallest runs first (Huffman's optimal merge pattern): each merge takes the runs
 * with the fewest bytes, so big runs are rewritten as seldom as possible. Every merge reduces the
 * run count by (inputs - 1); the first merge takes just enough runs ({@code (R - TM) mod (TM - 1) +
 * 1}, or TM) that every later merge is full and the count lands exactly on TM. Each merge is a
 * {@link LoserTree} over prefetching {@link RunReader}s into a {@link RunWriter}; its input runs
 * are deleted as soon as the output is complete. A pass count is reported as the most times any
 * entry was rewritten.
 *
 * <p>Memory: per merge, {@code TM × (prefetchBlocks + 1)} blocks of readers plus one block of
 * writer. Disk: while a merge runs, its inputs and its output exist side by side. If a merge fails,
 * its output is deleted; runs merged before the failure were already deleted and the caller's list
 * is stale: close the {@link TempSpace}, which deletes everything left.
 */
public final class MultiPassMerge {
  /**
   * The merge knobs.
   *
   * @param fanIn {@code -TM}: runs merged at once, at least 2
   * @param blockSize {@code -TB} in bytes for the runs written
   * @param prefetchBlocks blocks each reader reads ahead, 0..64
   */
  public record Settings(int fanIn, int blockSize, int prefetchBlocks) {
    public Settings {
      if (fanIn < 2) {
        throw new IllegalArgumentException("fanIn : " + fanIn + " (expected: >= 2)");
      }
      if (blockSize < RunWriter.MIN_BLOCK_SIZE || blockSize > RunWriter.MAX_BLOCK_SIZE) {
        throw new IllegalArgumentException(
            "blockSize : "
                + blockSize
                + " (expected: "
                + RunWriter.MIN_BLOCK_SIZE
                + ".."
                + RunWriter.MAX_BLOCK_SIZE
                + ")");
      }
      if (prefetchBlocks < 0 || prefetchBlocks > 64) {
        throw new IllegalArgumentException(
            "prefetchBlocks : " + prefetchBlocks + " (expected: 0..64)");
      }
    }
  }

  /**
   * What {@link #reduce} did.
   *
   * @param runs the runs left, at most the fan-in: untouched inputs first, then merge outputs
   * @param passes the most times any entry was rewritten (0 when nothing was merged)
   * @param merges how many intermediate merges ran
   * @param bytesWritten bytes of the runs written
   * @param entriesWritten entries in the runs written
   */
  public record Result(
      List<Run> runs, int passes, int merges, long bytesWritten, long entriesWritten) {}

  private record Item(Run run, int level, long seq) {}

  private final TempSpace space;
  private final int group;
  private final Settings settings;
  private final Executor prefetchExecutor;

  /**
   * @param prefetchExecutor runs the readers' block reads; null reads on the merging thread
   */
  public MultiPassMerge(TempSpace space, int group, Settings settings, Executor prefetchExecutor) {
    this.space = space;
    this.group = group;
    this.settings = settings;
    this.prefetchExecutor = prefetchExecutor;
  }

  /** Merges until at most {@code fanIn} runs remain; the given runs it merged are deleted. */
  public Result reduce(List<Run> runs) {
    int fanIn = settings.fanIn();
    for (Run r : runs) {
      if (r.isDeleted()) {
        throw new IllegalArgumentException("run was deleted: " + r);
      }
    }
    if (runs.size() <= fanIn) {
      return new Result(List.copyOf(runs), 0, 0, 0, 0);
    }
    PriorityQueue<Item> queue =
        new PriorityQueue<>(
            Comparator.comparingLong((Item i) -> i.run().diskBytes()).thenComparingLong(Item::seq));
    long seq = 0;
    for (Run r : runs) {
      queue.add(new Item(r, 0, seq++));
    }
    int rest = (runs.size() - fanIn) % (fanIn - 1);
    int take = rest == 0 ? fanIn : rest + 1;
    int merges = 0;
    long bytes = 0;
    long entries = 0;
    while (queue.size() > fanIn) {
      List<Run> inputs = new ArrayList<>(take);
      int level = 0;
      for (int i = 0; i < take; i++) {
        Item it = queue.poll();
        inputs.add(it.run());
        level = Math.max(level, it.level());
      }
      Run out = merge(inputs);
      queue.add(new Item(out, level + 1, seq++));
      merges++;
      bytes += out.diskBytes();
      entries += out.entries();
      take = fanIn;
    }
    List<Item> left = new ArrayList<>(queue);
    left.sort(Comparator.comparingLong(Item::seq));
    List<Run> out = new ArrayList<>(left.size());
    int passes = 0;
    for (Item it : left) {
      out.add(it.run());
      passes = Math.max(passes, it.level());
    }
    return new Result(List.copyOf(out), passes, merges, bytes, entries);
  }

  /** Merges {@code inputs} into one new run and deletes them. */
  Run merge(List<Run> inputs) {
    try (RunWriter writer = new RunWriter(space, group, settings.blockSize())) {
      List<RunReader> readers = new ArrayList<>(inputs.size());
      try {
        for (Run r : inputs) {
          readers.add(RunReader.open(r, prefetchExecutor, settings.prefetchBlocks()));
        }
      } catch (RuntimeException e) {
        for (RunReader r : readers) {
          try {
            r.close();
          } catch (RuntimeException suppressed) {
            e.addSuppressed(suppressed);
          }
        }
        throw e;
      }
      try (LoserTree tree = new LoserTree(readers)) {
        writer.addAll(tree);
      }
      Run out = writer.finish();
      for (Run r : inputs) {
        r.delete();
      }
      return out;
    }
  }
}
