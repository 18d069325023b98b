package dev.idxkit.cli.output;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;

/**
 * JSON output: one pretty-printed document for reports ({@code --json}), one compact line per row
 * for JSON Lines. Never closes the stream it writes to.
 */
public final class Json {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
          .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
          .disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE)
          // DECIMAL values keep their scale: 12.30 stays 12.30, not 12.3.
          .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

  private Json() {}

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** Writes {@code doc} indented, and a newline. */
  public static void printPretty(PrintWriter out, Object doc) {
    out.println(write(doc, true));
  }

  /** Writes {@code doc} on one line, and a newline. */
  public static void printLine(PrintWriter out, Object doc) {
    out.println(write(doc, false));
  }

  private static String write(Object doc, boolean pretty) {
    try {
      return pretty
          ? MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc)
          : MAPPER.writeValueAsString(doc);
    } catch (JsonProcessingException e) {
      // Trees built here hold only strings, numbers, booleans and nulls.
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
  }
}
