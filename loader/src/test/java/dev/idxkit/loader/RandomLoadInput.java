package dev.idxkit.loader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.SplittableRandom;

/**
 * A seeded CSV input for table {@link #DDL}: ids in random order, NULLs, quoted commas, quotes and
 * line breaks, some long notes (overflow records at 8 KiB pages), and about one bad record in 60 (a
 * bad number, or a missing field).
 */
final class RandomLoadInput {
  static final String DDL =
      "CREATE TABLE t (id BIGINT NOT NULL, grp INT NOT NULL, name VARCHAR(30),"
          + " amount DECIMAL(12,2), day DATE, note TEXT, PRIMARY KEY (id));"
          + "CREATE INDEX t_grp ON t (grp, day);";

  private RandomLoadInput() {}

  /** Writes {@code rows} records (good and bad) to {@code file}; returns the number of bad ones. */
  static int write(Path file, long seed, int rows) throws IOException {
    SplittableRandom r = new SplittableRandom(seed);
    long[] ids = new long[rows];
    for (int i = 0; i < rows; i++) {
      ids[i] = i + 1;
    }
    for (int i = rows - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      long t = ids[i];
      ids[i] = ids[j];
      ids[j] = t;
    }
    StringBuilder sb = new StringBuilder("id,grp,name,amount,day,note\n");
    int bad = 0;
    for (int i = 0; i < rows; i++) {
      int kind = r.nextInt(60);
      sb.append(ids[i]).append(',').append(r.nextInt(40)).append(',');
      sb.append(name(r)).append(',');
      if (kind == 0) {
        sb.append("12x.5"); // not a number
        bad++;
      } else if (r.nextInt(10) > 0) {
        sb.append(amount(r));
      }
      sb.append(',');
      if (r.nextInt(8) > 0) {
        sb.append(LocalDate.ofEpochDay(r.nextInt(20_000)));
      }
      if (kind == 1) {
        sb.append('\n'); // a missing note field: 5 fields instead of 6
        bad++;
        continue;
      }
      sb.append(',').append(note(r)).append('\n');
    }
    Files.writeString(file, sb, StandardCharsets.UTF_8);
    return bad;
  }

  private static String amount(SplittableRandom r) {
    long cents = r.nextLong(-1_000_000_00L, 1_000_000_00L);
    return java.math.BigDecimal.valueOf(cents, 2).toPlainString();
  }

  private static String name(SplittableRandom r) {
    switch (r.nextInt(6)) {
      case 0:
        return ""; // NULL
      case 1:
        return "\"\""; // the empty string
      case 2:
        return "\"n, \"\"" + r.nextInt(1000) + "\"\"\""; // comma and quotes
      default:
        return "name" + r.nextInt(100_000);
    }
  }

  private static String note(SplittableRandom r) {
    int k = r.nextInt(300);
    if (k == 0) {
      return "long:" + "x".repeat(9000 + r.nextInt(12_000)); // an overflow record
    }
    if (k < 10) {
      return "\"two\nlines\"";
    }
    return "note " + r.nextInt();
  }
}
