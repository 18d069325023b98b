package dev.idxkit.jmh.experiments;

import dev.idxkit.jmh.report.Results;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What the {@code accounting} pass adds up: files and bytes per owner, group and account, a
 * histogram of file sizes by power of two, and counts of what it skipped or found wrong. A reader
 * thread fills its own tally; the pass {@link #add}s them together, so no counter is shared.
 *
 * <h2>Encoding (inside the pass's checkpoint, see {@link AccountingPass})</h2>
 *
 * <pre>
 * u32 owners  u32 groups  u32 accounts          the dimensions (must match on decode)
 * owners   x (i64 files, i64 bytes)
 * groups   x (i64 files, i64 bytes)
 * accounts x (i64 files, i64 bytes)
 * 64 x i64 histogram                            [k] = files with 2^k &lt;= size &lt; 2^(k+1)
 * i64 files  i64 directories  i64 links  i64 missing bitfiles  i64 size mismatches
 * </pre>
 */
final class Tally {
  static final int HISTOGRAM_BUCKETS = 64;

  final long[] owners = new long[AccountingData.OWNERS * 2];
  final long[] groups = new long[AccountingData.GROUPS * 2];
  final long[] accounts = new long[AccountingData.ACCOUNTS * 2];
  final long[] histogram = new long[HISTOGRAM_BUCKETS];
  long files;
  long directories;
  long links;
  long missing;
  long mismatched;

  /** Counts one file of {@code bytes} (as its bitfile says). */
  void file(int owner, int group, int account, long bytes) {
    files++;
    owners[owner * 2]++;
    owners[owner * 2 + 1] += bytes;
    groups[group * 2]++;
    groups[group * 2 + 1] += bytes;
    accounts[account * 2]++;
    accounts[account * 2 + 1] += bytes;
    histogram[bytes <= 0 ? 0 : 63 - Long.numberOfLeadingZeros(bytes)]++;
  }

  void add(Tally o) {
    addInto(owners, o.owners);
    addInto(groups, o.groups);
    addInto(accounts, o.accounts);
    addInto(histogram, o.histogram);
    files += o.files;
    directories += o.directories;
    links += o.links;
    missing += o.missing;
    mismatched += o.mismatched;
  }

  long totalBytes() {
    long b = 0;
    for (int i = 1; i < owners.length; i += 2) {
      b += owners[i];
    }
    return b;
  }

  /** Bytes of {@link #encode}. */
  static int encodedSize() {
    return 12
        + 8 * (AccountingData.OWNERS * 2 + AccountingData.GROUPS * 2 + AccountingData.ACCOUNTS * 2)
        + 8 * HISTOGRAM_BUCKETS
        + 8 * 5;
  }

  void encode(ByteBuffer b) {
    b.putInt(AccountingData.OWNERS).putInt(AccountingData.GROUPS).putInt(AccountingData.ACCOUNTS);
    for (long[] a : new long[][] {owners, groups, accounts, histogram}) {
      for (long v : a) {
        b.putLong(v);
      }
    }
    b.putLong(files).putLong(directories).putLong(links).putLong(missing).putLong(mismatched);
  }

  static Tally decode(ByteBuffer b) {
    int o = b.getInt();
    int g = b.getInt();
    int a = b.getInt();
    if (o != AccountingData.OWNERS || g != AccountingData.GROUPS || a != AccountingData.ACCOUNTS) {
      throw new IllegalArgumentException(
          "tally dimensions "
              + o
              + "/"
              + g
              + "/"
              + a
              + " (expected: "
              + AccountingData.OWNERS
              + "/"
              + AccountingData.GROUPS
              + "/"
              + AccountingData.ACCOUNTS
              + ")");
    }
    Tally t = new Tally();
    for (long[] arr : new long[][] {t.owners, t.groups, t.accounts, t.histogram}) {
      for (int i = 0; i < arr.length; i++) {
        arr[i] = b.getLong();
      }
    }
    t.files = b.getLong();
    t.directories = b.getLong();
    t.links = b.getLong();
    t.missing = b.getLong();
    t.mismatched = b.getLong();
    return t;
  }

  /** One row per owner, group, account and histogram bucket that has files. */
  Results toResults(String name) {
    Results r = Results.of(name, "dimension", "key", "files", "bytes");
    rows(r, "owner", owners);
    rows(r, "group", groups);
    rows(r, "account", accounts);
    for (int k = 0; k < HISTOGRAM_BUCKETS; k++) {
      if (histogram[k] > 0) {
        r.row("size_log2", k, histogram[k], null);
      }
    }
    r.row("total", "files", files, totalBytes());
    r.row("skipped", "directories", directories, null);
    r.row("skipped", "links", links, null);
    r.row("error", "missing_bitfile", missing, null);
    r.row("error", "size_mismatch", mismatched, null);
    return r;
  }

  private static void rows(Results r, String dimension, long[] pairs) {
    for (int i = 0; i < pairs.length / 2; i++) {
      if (pairs[i * 2] > 0) {
        r.row(dimension, i, pairs[i * 2], pairs[i * 2 + 1]);
      }
    }
  }

  private static void addInto(long[] to, long[] from) {
    for (int i = 0; i < to.length; i++) {
      to[i] += from[i];
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Tally t
        && Arrays.equals(owners, t.owners)
        && Arrays.equals(groups, t.groups)
        && Arrays.equals(accounts, t.accounts)
        && Arrays.equals(histogram, t.histogram)
        && files == t.files
        && directories == t.directories
        && links == t.links
        && missing == t.missing
        && mismatched == t.mismatched;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(owners) * 31 + Long.hashCode(files);
  }

  @Override
  public String toString() {
    return "Tally[files="
        + files
        + ", bytes="
        + totalBytes()
        + ", directories="
        + directories
        + ", links="
        + links
        + ", missing="
        + missing
        + ", mismatched="
        + mismatched
        + "]";
  }
}
