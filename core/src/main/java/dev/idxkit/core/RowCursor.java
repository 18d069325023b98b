package dev.idxkit.core;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** Rows of a scan, fetched in batches; close it when done early (it holds no lock between rows). */
public interface RowCursor extends Iterator<Row>, AutoCloseable {
  @Override
  void close();

  /** The remaining rows, up to {@code max}. */
  default List<Row> take(int max) {
    List<Row> out = new ArrayList<>();
    while (out.size() < max && hasNext()) {
      out.add(next());
    }
    return out;
  }
}
