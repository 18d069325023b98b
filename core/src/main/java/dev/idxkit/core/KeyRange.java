package dev.idxkit.core;

/**
 * Bounds of an index scan, in index order, given as leading key-column values (a prefix of the key
 * is fine: {@code from = {5}} on an index of (a, b) starts at a = 5). A null bound is open. Bounds
 * compare by prefix: an inclusive {@code to = {5}} includes every key starting with a = 5.
 */
public record KeyRange(Object[] from, boolean fromInclusive, Object[] to, boolean toInclusive) {
  public static final KeyRange ALL = new KeyRange(null, true, null, true);

  /** Keys from {@code from} to {@code to}, both inclusive; either may be null. */
  public static KeyRange closed(Object[] from, Object[] to) {
    return new KeyRange(from, true, to, true);
  }

  /** Every key starting with these values. */
  public static KeyRange prefix(Object... values) {
    return new KeyRange(values, true, values, true);
  }
}
