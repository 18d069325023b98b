package dev.idxkit.cli.commands;

import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.ColumnDef;
import dev.idxkit.core.schema.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Index keys typed on the command line, turned into leading key-column values of one index.
 *
 * <p>Two forms. As separate arguments ({@code get db --index lineitem_pk 5 2}), each argument is
 * one value, taken as it is. As one list ({@code --key}, {@code --from}, {@code --to}):
 *
 * <pre>
 * list   := item (',' item)*
 * item   := [column '='] value                  all items named, or none
 * column := [A-Za-z_][A-Za-z0-9_]*               a key column of the index
 * value  := '"' (any char, '""' for '"')* '"'     exact text, may hold ',' '=' and spaces
 *         | text up to the next ','               surrounding blanks trimmed
 * </pre>
 *
 * <p>Examples on {@code lineitem_pk (l_orderkey BIGINT, l_linenumber INT)}: {@code 5,2}; {@code
 * l_orderkey=5,l_linenumber=2}; {@code l_orderkey=5} (a prefix). Named items may come in any order
 * but must name a leading run of the key columns: {@code l_linenumber=2} alone is refused, because
 * an index can only seek on a prefix. The word {@code NULL} (any case, unquoted) is SQL NULL; to
 * give the text "NULL", or a value with a comma, an {@code =} or outer blanks, quote it.
 *
 * <p>Values are parsed by {@link Values#parse(ColumnDef, String)}, so a key is written as {@code
 * idxkit scan} prints it: {@code 1995-03-15} for a DATE, {@code 12.50} for a DECIMAL(15,2). Every
 * mistake is an {@link InvalidInputException} naming the option, the column and its type.
 */
public final class KeyText {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private KeyText() {}

  /** Values given as separate arguments, in key column order. */
  public static Object[] fromArguments(IndexInfo ix, List<String> args, String what) {
    checkCount(ix, args.size(), what);
    Object[] out = new Object[args.size()];
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      out[i] = parse(ix, i, a.equalsIgnoreCase("NULL") ? null : a, what);
    }
    return out;
  }

  /** Values given as one list in the syntax above; {@code option} names it in errors. */
  public static Object[] fromList(IndexInfo ix, String text, String option) {
    List<Item> items = split(text, option);
    boolean named = items.get(0).column != null;
    for (Item it : items) {
      if ((it.column != null) != named) {
        throw new InvalidInputException(
            option
                + " : "
                + text
                + " (expected: all values named, as column=value, or none; "
                + describe(ix)
                + ")");
      }
    }
    if (!named) {
      checkCount(ix, items.size(), option);
      Object[] out = new Object[items.size()];
      for (int i = 0; i < items.size(); i++) {
        out[i] = parse(ix, i, items.get(i).value, option);
      }
      return out;
    }
    String[] byPosition = new String[ix.columns().length];
    boolean[] given = new boolean[ix.columns().length];
    for (Item it : items) {
      int pos = keyPosition(ix, it.column);
      if (pos < 0) {
        throw new InvalidInputException(
            option
                + " : "
                + it.column
                + " is not a key column of index "
                + ix.name()
                + " ("
                + describe(ix)
                + ")");
      }
      if (given[pos]) {
        throw new InvalidInputException(
            option + " : " + column(ix, pos).name() + " given twice (" + describe(ix) + ")");
      }
      given[pos] = true;
      byPosition[pos] = it.value;
    }
    int n = items.size();
    for (int i = 0; i < n; i++) {
      if (!given[i]) {
        throw new InvalidInputException(
            option
                + " : "
                + column(ix, firstGivenAfter(given, i)).name()
                + " given without "
                + column(ix, i).name()
                + " (expected: the leading key columns of index "
                + ix.name()
                + ", "
                + describe(ix)
                + ")");
      }
    }
    Object[] out = new Object[n];
    for (int i = 0; i < n; i++) {
      out[i] = parse(ix, i, byPosition[i], option);
    }
    return out;
  }

  /** The index's key columns with their types, for error messages and help. */
  public static String describe(IndexInfo ix) {
    StringBuilder sb = new StringBuilder("key columns: ");
    for (int i = 0; i < ix.columns().length; i++) {
      ColumnDef c = column(ix, i);
      sb.append(i == 0 ? "" : ", ").append(c.name()).append(' ').append(c.type().sql());
    }
    return sb.toString();
  }

  private static int firstGivenAfter(boolean[] given, int i) {
    for (int j = i + 1; j < given.length; j++) {
      if (given[j]) {
        return j;
      }
    }
    throw new IllegalStateException("no column given after position " + i);
  }

  private static ColumnDef column(IndexInfo ix, int keyPos) {
    return ix.table().columns().get(ix.columns()[keyPos]);
  }

  private static int keyPosition(IndexInfo ix, String name) {
    for (int i = 0; i < ix.columns().length; i++) {
      if (column(ix, i).name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static void checkCount(IndexInfo ix, int n, String what) {
    if (n == 0) {
      throw new InvalidInputException(what + " : no values (expected: " + describe(ix) + ")");
    }
    if (n > ix.columns().length) {
      throw new InvalidInputException(
          what
              + " : "
              + n
              + " values for index "
              + ix.name()
              + " (expected: at most "
              + ix.columns().length
              + ", "
              + describe(ix)
              + ")");
    }
  }

  private static Object parse(IndexInfo ix, int keyPos, String text, String what) {
    ColumnDef col = column(ix, keyPos);
    if (text == null) {
      // A NULL key part finds the rows whose column is NULL, whatever its declared nullability.
      return null;
    }
    try {
      return Values.parse(col, text);
    } catch (InvalidInputException e) {
      throw new InvalidInputException(what + " : " + e.getMessage(), e);
    }
  }

  private record Item(String column, String value) {}

  private static List<Item> split(String text, String option) {
    List<Item> items = new ArrayList<>();
    int i = 0;
    int n = text.length();
    if (text.isBlank()) {
      throw new InvalidInputException(option + " : empty (expected: values separated by ',')");
    }
    while (true) {
      // Optional "name=" before the value.
      int j = i;
      while (j < n && text.charAt(j) == ' ') {
        j++;
      }
      String column = null;
      int eq = text.indexOf('=', j);
      int comma = text.indexOf(',', j);
      if (eq > 0 && (comma < 0 || eq < comma) && j < n && text.charAt(j) != '"') {
        String name = text.substring(j, eq).strip();
        if (NAME.matcher(name).matches()) {
          column = name.toLowerCase(Locale.ROOT);
          j = eq + 1;
        }
      }
      while (j < n && text.charAt(j) == ' ') {
        j++;
      }
      String value;
      if (j < n && text.charAt(j) == '"') {
        StringBuilder sb = new StringBuilder();
        int k = j + 1;
        while (true) {
          if (k >= n) {
            throw new InvalidInputException(
                option
                    + " : "
                    + text
                    + " (expected: a closing '\"' for the quote at position "
                    + (j + 1)
                    + ")");
          }
          char c = text.charAt(k);
          if (c == '"') {
            if (k + 1 < n && text.charAt(k + 1) == '"') {
              sb.append('"');
              k += 2;
              continue;
            }
            k++;
            break;
          }
          sb.append(c);
          k++;
        }
        while (k < n && text.charAt(k) == ' ') {
          k++;
        }
        if (k < n && text.charAt(k) != ',') {
          throw new InvalidInputException(
              option
                  + " : "
                  + text
                  + " (expected: ',' after the quoted value at position "
                  + (k + 1)
                  + ")");
        }
        value = sb.toString();
        j = k;
      } else {
        int end = text.indexOf(',', j);
        end = end < 0 ? n : end;
        String raw = text.substring(j, end).strip();
        value = raw.equalsIgnoreCase("NULL") ? null : raw;
        j = end;
      }
      items.add(new Item(column, value));
      if (j >= n) {
        return items;
      }
      i = j + 1; // past the ','
    }
  }
}
