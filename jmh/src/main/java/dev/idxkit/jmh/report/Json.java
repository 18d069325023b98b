package dev.idxkit.jmh.report;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON writer for the result files: maps (keys in their order), lists, strings, numbers,
 * booleans and null, pretty-printed with two-space indents. Not a general library - it writes what
 * {@link ResultWriter} gives it, and nothing in idxkit parses JSON from here.
 */
final class Json {
  private Json() {}

  static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 0);
    return sb.append('\n').toString();
  }

  private static void write(StringBuilder sb, Object v, int indent) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      string(sb, s);
    } else if (v instanceof Boolean b) {
      sb.append(b);
    } else if (v instanceof Number n) {
      sb.append(number(n));
    } else if (v instanceof Map<?, ?> m) {
      object(sb, m, indent);
    } else if (v instanceof List<?> l) {
      array(sb, l, indent);
    } else {
      throw new IllegalArgumentException("cannot write a " + v.getClass().getName() + " as JSON");
    }
  }

  private static void object(StringBuilder sb, Map<?, ?> m, int indent) {
    if (m.isEmpty()) {
      sb.append("{}");
      return;
    }
    sb.append("{\n");
    Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<?, ?> e = it.next();
      pad(sb, indent + 1);
      string(sb, String.valueOf(e.getKey()));
      sb.append(": ");
      write(sb, e.getValue(), indent + 1);
      sb.append(it.hasNext() ? ",\n" : "\n");
    }
    pad(sb, indent);
    sb.append('}');
  }

  private static void array(StringBuilder sb, List<?> l, int indent) {
    if (l.isEmpty()) {
      sb.append("[]");
      return;
    }
    sb.append("[\n");
    for (int i = 0; i < l.size(); i++) {
      pad(sb, indent + 1);
      write(sb, l.get(i), indent + 1);
      sb.append(i + 1 < l.size() ? ",\n" : "\n");
    }
    pad(sb, indent);
    sb.append(']');
  }

  /** Numbers in plain decimal notation: {@code 10000000}, not {@code 1.0E7}. */
  static String number(Number n) {
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      if (!Double.isFinite(d)) {
        throw new IllegalArgumentException("not a finite number: " + d);
      }
      return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
    if (n instanceof BigDecimal b) {
      return b.toPlainString();
    }
    return n.toString();
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  private static void pad(StringBuilder sb, int indent) {
    sb.append("  ".repeat(indent));
  }
}
