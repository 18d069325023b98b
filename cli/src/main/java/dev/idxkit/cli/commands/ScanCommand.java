package dev.idxkit.cli.commands;

import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.Session;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.KeyRange;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code idxkit scan}: rows of a key range in index order. */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    description = {
      "Print the rows of a key range in index order (read-only).",
      "",
      "--from and --to are inclusive and compare by prefix: --to 5 on (l_orderkey, l_linenumber)"
          + " includes every row with l_orderkey 5. Either may be left out for an open end."
          + " Each is one list: values in key order separated by commas (5,2), or col=value pairs"
          + " naming leading key columns (l_orderkey=5,l_linenumber=2). Values are typed as the"
          + " columns are (1995-03-15 for a DATE); NULL (unquoted) is SQL NULL; quote a value"
          + " holding a comma, '=' or outer blanks: \"a,b\". Prints 100 rows unless --limit says"
          + " otherwise."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit scan shop.db --index lineitem_pk --from 5 --to 7",
      "  idxkit scan shop.db --index lineitem_pk --from l_orderkey=5,l_linenumber=3",
      "  idxkit scan shop.db --index orders_orderdate_ix --from 1995-01-01 \\",
      "      --to 1995-01-31 --limit 0 --format csv > jan.csv",
      "  idxkit scan shop.db --index orders_pk --reverse --limit 5"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      "0:done (also when no row is in the range)",
      ExitCodes.FAILED_LINE,
      "2:bad usage or input (no database at DB, unknown index, wrong number or type of key"
          + " values)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class ScanCommand extends DbCommand {
  @Option(
      names = "--index",
      required = true,
      paramLabel = "INDEX",
      description = "The index to scan.")
  String index;

  @Option(
      names = "--from",
      paramLabel = "KEY",
      description = "Start at this key (inclusive); default: the first key.")
  String from;

  @Option(
      names = "--to",
      paramLabel = "KEY",
      description = "Stop after this key (inclusive, by prefix); default: the last key.")
  String to;

  @Option(names = "--reverse", description = "Descending order: from --to down to --from.")
  boolean reverse;

  @Mixin RowOutputOptions output;

  ScanCommand(Session session) {
    super(session);
  }

  @Override
  public Integer call() {
    try (Database db = openReadOnly()) {
      IndexInfo ix = index(db, index);
      Object[] lo = from == null ? null : KeyText.fromList(ix, from, "--from");
      Object[] hi = to == null ? null : KeyText.fromList(ix, to, "--to");
      IndexRows.print(
          db.index(ix.name()),
          KeyRange.closed(lo, hi),
          reverse,
          output,
          out(),
          err(),
          session.guard());
    }
    return ExitCodes.OK;
  }
}
