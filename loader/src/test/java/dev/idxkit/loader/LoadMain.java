package dev.idxkit.loader;

import dev.idxkit.core.Database;
import dev.idxkit.core.IdxkitException;
import dev.idxkit.loader.input.CsvOptions;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A CSV load in a process of its own, for tests that kill it ({@code kill -9}) and resume: the
 * crash harness's entry point for loads.
 *
 * <pre>
 * LoadMain DB CSV TABLE MODE START CHECKPOINT_ROWS CHUNK_BYTES [REJECTS]
 *   MODE  deferred | none | live      START  new | resume | restart
 * </pre>
 *
 * Prints one line per event, flushed at once, so a parent reading stdout knows how far it got:
 * {@code checkpoint <rows> <line>} once a checkpoint is durable, {@code batch <rows>} after each
 * batch, {@code outcome <OUTCOME> <rows loaded>} at the end. Exit code: the outcome's, or 2 for bad
 * input, 1 for another failure (its message on stderr). The deferred index build is {@link
 * TestIndexBuild} (the real rebuilder with a small memory budget).
 */
public final class LoadMain {
  private LoadMain() {}

  public static void main(String[] args) {
    if (args.length < 7) {
      System.err.println(
          "usage: LoadMain DB CSV TABLE MODE START CHECKPOINT_ROWS CHUNK_BYTES [REJECTS]");
      System.exit(2);
    }
    int exit;
    try (Database db = Database.open(Path.of(args[0]))) {
      LoadOptions options =
          LoadOptions.of(
                  args[2],
                  LoadInput.csv(
                      Path.of(args[1]),
                      CsvOptions.defaults().withChunkBytes(Integer.parseInt(args[6]))))
              .withIndexMode(IndexMode.valueOf(args[3].toUpperCase(Locale.ROOT)))
              .withStartMode(StartMode.valueOf(args[4].toUpperCase(Locale.ROOT)))
              .withCheckpointRows(Long.parseLong(args[5]))
              .withRejectFile(args.length > 7 ? Path.of(args[7]) : null);
      LoadReport r =
          new Loader(db, options, new TestIndexBuild())
              .run(
                  new LoadListener() {
                    @Override
                    public void checkpoint(LoadProgress p) {
                      say(
                          "checkpoint "
                              + p.rowsLoaded()
                              + " "
                              + (p.lastCheckpoint() == null ? 0 : p.lastCheckpoint().line()));
                    }

                    @Override
                    public void progress(LoadProgress p) {
                      say("batch " + p.rowsLoaded());
                    }
                  });
      say("outcome " + r.outcome() + " " + r.rowsLoaded());
      exit = r.outcome().exitCode();
    } catch (IdxkitException e) {
      System.err.println(e.getMessage());
      exit = e.isBadInput() ? 2 : 1;
    }
    System.exit(exit);
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
