package dev.idxkit.cli.commands;

import dev.idxkit.cli.ExitCodes;
import dev.idxkit.cli.Session;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.Database;
import dev.idxkit.core.Index;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.KeyRange;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code idxkit get}: the rows whose key starts with the given values, through one index. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description = {
      "Look up rows by key through an index and print them (read-only).",
      "",
      "Give the key values in index column order, one per argument, or as --key with column"
          + " names. A shorter key (a prefix) prints every row that starts with it, in index"
          + " order. Values are typed as the columns are: 1995-03-15 for a DATE, 12.50 for a"
          + " DECIMAL(15,2); NULL (unquoted) is SQL NULL. A value with a comma, '=' or outer blanks"
          + " goes in double quotes inside --key. 'idxkit info DB' lists the indexes and their"
          + " columns."
    },
    footer = {
      "",
      "Examples:",
      "  idxkit get shop.db --index lineitem_pk 5 2",
      "  idxkit get shop.db --index lineitem_pk --key 'l_orderkey=5,l_linenumber=2'",
      "  idxkit get shop.db --index lineitem_pk 5 --columns l_linenumber,l_quantity",
      "  idxkit get shop.db --index orders_orderdate_ix 1995-03-15 --format csv"
    },
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {
      "0:done (also when no row matches: the table format says '(0 rows)')",
      ExitCodes.FAILED_LINE,
      "2:bad usage or input (no database at DB, unknown index, wrong number or type of key"
          + " values)",
      ExitCodes.INTERRUPTED_LINE
    })
public final class GetCommand extends DbCommand {
  @Option(
      names = "--index",
      required = true,
      paramLabel = "INDEX",
      description = "The index to look up in.")
  String index;

  @Option(
      names = "--key",
      paramLabel = "COL=VALUE,...",
      description =
          "The key as one list: col=value pairs naming leading key columns (any order), or"
              + " values in key order separated by commas. Instead of KEY arguments.")
  String key;

  @Parameters(
      index = "1..*",
      paramLabel = "KEY",
      arity = "0..*",
      description = "Key values in index column order, one per argument.")
  List<String> keyValues = List.of();

  @Mixin RowOutputOptions output;

  GetCommand(Session session) {
    super(session);
  }

  @Override
  public Integer call() {
    try (Database db = openReadOnly()) {
      IndexInfo ix = index(db, index);
      Object[] k;
      if (key != null) {
        if (!keyValues.isEmpty()) {
          throw new InvalidInputException(
              "--key and KEY arguments given (expected: one of them; "
                  + KeyText.describe(ix)
                  + ")");
        }
        k = KeyText.fromList(ix, key, "--key");
      } else {
        k = KeyText.fromArguments(ix, keyValues, "KEY");
      }
      Index i = db.index(ix.name());
      IndexRows.print(i, KeyRange.prefix(k), false, output, out(), err(), session.guard());
    }
    return ExitCodes.OK;
  }
}
