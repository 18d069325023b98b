package dev.idxkit.jmh.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result files' JSON, written by Jackson: maps (keys in their order), lists, strings, numbers,
 * booleans and null, pretty-printed with two-space indents. Numbers stay in plain decimal notation
 * ({@code 10000000}, not {@code 1.0E7}): doubles go out as {@link BigDecimal}s, which Jackson is
 * told to write plain. Nothing in idxkit parses JSON from here.
 */
final class Json {
  /** Pretty, with {@code "key": value} as the result files have always been written. */
  private static final DefaultPrettyPrinter PRINTER =
      new DefaultPrettyPrinter()
          .withSeparators(
              Separators.createDefaultInstance()
                  .withObjectFieldValueSpacing(Separators.Spacing.AFTER));

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

  private Json() {}

  static String write(Object value) {
    try {
      return MAPPER.writer(PRINTER).writeValueAsString(plain(value)) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write the results as JSON: " + e.getMessage(), e);
    }
  }

  /** A copy of {@code v} with every double as a plain-decimal {@link BigDecimal}. */
  private static Object plain(Object v) {
    if (v == null || v instanceof String || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Number n) {
      return n instanceof Double || n instanceof Float ? new BigDecimal(number(n)) : n;
    }
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(String.valueOf(k), plain(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(plain(x)));
      return out;
    }
    throw new IllegalArgumentException("cannot write a " + v.getClass().getName() + " as JSON");
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
}
