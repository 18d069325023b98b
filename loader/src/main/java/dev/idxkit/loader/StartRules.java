package dev.idxkit.loader;

import dev.idxkit.core.Catalog.TableInfo;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.loader.internal.ResumeState;
import java.util.Locale;

/**
 * What an unfinished load's resume point allows a new run to do ({@link StartMode}): each refusal
 * an {@link InvalidInputException} that says how far the unfinished load got and which option goes
 * on ({@code --resume}, {@code --restart}, {@code --index-build}, the names the command line uses).
 */
final class StartRules {
  private StartRules() {}

  /** Refuses the run if the resume point does not allow it; see {@link StartMode}. */
  static void check(LoadOptions options, TableInfo table, ResumeState prior, String identity) {
    String name = table.name();
    switch (options.startMode()) {
      case NEW -> {
        if (prior != null) {
          throw new InvalidInputException(
              "table "
                  + name
                  + " has an unfinished load ("
                  + prior.describe()
                  + ", input "
                  + prior.inputIdentity()
                  + "); continue it with --resume"
                  + (prior.mode() == IndexMode.LIVE
                      ? " (a live load cannot be restarted: its rows cannot be told apart from"
                          + " the table's others)"
                      : ", or discard its rows and start over with --restart"));
        }
      }
      case RESUME -> {
        if (prior == null) {
          throw new InvalidInputException(
              "there is no unfinished load of table "
                  + name
                  + " to resume (the last one finished, or none has started); to load rows, run"
                  + " without --resume");
        }
        checkSameTable(table, prior);
        if (prior.mode() != options.indexMode()) {
          throw new InvalidInputException(
              "the unfinished load of table "
                  + name
                  + " has index mode "
                  + lower(prior.mode())
                  + ", not "
                  + lower(options.indexMode())
                  + "; resume it with --index-build "
                  + lower(prior.mode()));
        }
        if (!prior.inputIdentity().equals(identity)) {
          throw new InvalidInputException(
              "the unfinished load of table "
                  + name
                  + " read a different input; it read: "
                  + prior.inputIdentity()
                  + "; this one is: "
                  + identity
                  + ". Resume it with the same input (unchanged), or start over with --restart");
        }
      }
      case RESTART -> {
        if (prior != null) {
          checkSameTable(table, prior);
          if (prior.mode() == IndexMode.LIVE) {
            throw new InvalidInputException(
                "the unfinished load of table "
                    + name
                    + " is a live load: its rows went in among the table's others and into its"
                    + " indexes and cannot be taken out again; continue it with --resume");
          }
        }
      }
    }
  }

  private static void checkSameTable(TableInfo table, ResumeState prior) {
    if (prior.tableId() != table.id()) {
      throw new InvalidInputException(
          "the unfinished load named table "
              + table.name()
              + " was into table id "
              + prior.tableId()
              + ", but "
              + table.name()
              + " is now table id "
              + table.id()
              + " (recreated?); the load cannot go on");
    }
  }

  /**
   * A restart into live mode: the interrupted bulk load's rows come out in a session of its own.
   */
  private static String lower(IndexMode m) {
    return m.name().toLowerCase(Locale.ROOT);
  }
}
