package dev.idxkit.cli.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * JSON output: one pretty-printed document for reports ({@code --json}), one compact line per row
 * for JSON Lines. Never closes the stream it writes to.
 *
 * <p>Documents are Jackson trees ({@link ObjectNode}), written by walking the tree with a streaming
 * {@link JsonGenerator}, without an {@code ObjectMapper}: making the first mapper of a process
 * costs 45-65 ms (it loads some 300 classes and reads the time-zone database for its date format,
 * which these trees never hold), the largest step left in {@code idxbuild --json} after the rebuild
 * (async-profiler, wall clock, TPC-H sf 0.5). The output is the mapper's: the same pretty printer,
 * decimals written plain with their scale.
 */
public final class Json {
  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

  private Json() {}

  /** A new empty object; DECIMAL values put in it keep their scale: 12.30 stays 12.30. */
  public static ObjectNode object() {
    return NODES.objectNode();
  }

  /** Writes {@code doc} indented, and a newline. */
  public static void printPretty(PrintWriter out, JsonNode doc) {
    out.println(write(doc, true));
  }

  /** Writes {@code doc} on one line, and a newline. */
  public static void printLine(PrintWriter out, JsonNode doc) {
    out.println(write(doc, false));
  }

  private static String write(JsonNode doc, boolean pretty) {
    StringWriter s = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(s)) {
      if (pretty) {
        g.useDefaultPrettyPrinter();
      }
      writeNode(g, doc);
    } catch (IOException e) {
      // A StringWriter does not fail.
      throw new UncheckedIOException("cannot write JSON: " + e.getMessage(), e);
    }
    return s.toString();
  }

  /** Writes one node and everything under it. */
  private static void writeNode(JsonGenerator g, JsonNode n) throws IOException {
    switch (n.getNodeType()) {
      case OBJECT -> {
        g.writeStartObject();
        for (Map.Entry<String, JsonNode> e : n.properties()) {
          g.writeFieldName(e.getKey());
          writeNode(g, e.getValue());
        }
        g.writeEndObject();
      }
      case ARRAY -> {
        g.writeStartArray();
        for (JsonNode e : n) {
          writeNode(g, e);
        }
        g.writeEndArray();
      }
      case STRING -> g.writeString(n.textValue());
      case BOOLEAN -> g.writeBoolean(n.booleanValue());
      case NULL, MISSING -> g.writeNull();
      case NUMBER -> writeNumber(g, n);
      default ->
          // BINARY and POJO nodes: the trees written here are built from strings, numbers,
          // booleans and nulls only.
          throw new IllegalArgumentException("cannot write a " + n.getNodeType() + " JSON node");
    }
  }

  private static void writeNumber(JsonGenerator g, JsonNode n) throws IOException {
    switch (n.numberType()) {
      case INT -> g.writeNumber(n.intValue());
      case LONG -> g.writeNumber(n.longValue());
      case BIG_INTEGER -> g.writeNumber(n.bigIntegerValue());
      case FLOAT -> g.writeNumber(n.floatValue());
      case DOUBLE -> g.writeNumber(n.doubleValue());
      case BIG_DECIMAL -> g.writeNumber(n.decimalValue());
    }
  }
}
