package dev.idxkit.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** Json writes trees without a mapper; what it writes must be what a mapper wrote before. */
class JsonTest {
  /** The mapper Json used before, as it was configured: the reference output. */
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
          .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

  private static ObjectNode everyKind() {
    ObjectNode o = Json.object();
    o.put("text", "tab\there \"quoted\" back\\slash é 日本 \u0001");
    o.put("int", -7);
    o.put("long", 1L << 40);
    o.put("short", (short) 12);
    o.put("double", 0.1);
    o.put("float", 2.5f);
    o.put("decimal", new BigDecimal("12.30"));
    o.put("bigExponent", new BigDecimal("1E+3"));
    o.put("bigInteger", new BigInteger("123456789012345678901234567890"));
    o.put("yes", true);
    o.put("no", false);
    o.putNull("nothing");
    o.putObject("empty");
    o.putArray("none");
    ArrayNode a = o.putArray("mixed");
    a.add(1).add("two").add(3.0).addNull().add(false);
    a.addObject().put("nested", "x").putArray("deeper").add(new BigDecimal("0.000"));
    a.addArray().addArray();
    return o;
  }

  private static String pretty(JsonNode doc) {
    return written(doc, true);
  }

  private static String line(JsonNode doc) {
    return written(doc, false);
  }

  private static String written(JsonNode doc, boolean pretty) {
    StringWriter s = new StringWriter();
    PrintWriter w = new PrintWriter(s);
    if (pretty) {
      Json.printPretty(w, doc);
    } else {
      Json.printLine(w, doc);
    }
    w.flush();
    return s.toString();
  }

  @Test
  void writesWhatTheMapperWrote() throws Exception {
    ObjectNode doc = everyKind();
    String nl = System.lineSeparator();
    assertEquals(MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + nl, pretty(doc));
    assertEquals(MAPPER.writeValueAsString(doc) + nl, line(doc));
  }

  @Test
  void decimalsKeepTheirScaleAndAreWrittenPlain() {
    ObjectNode doc = Json.object();
    doc.put("price", new BigDecimal("12.30"));
    doc.put("big", new BigDecimal("1E+3"));
    assertEquals("{\"price\":12.30,\"big\":1000}" + System.lineSeparator(), line(doc));
  }

  @Test
  void writesTopLevelArraysAndValuesToo() throws Exception {
    ArrayNode a = JsonNodeFactory.instance.arrayNode().add(1).add("a");
    assertEquals(MAPPER.writeValueAsString(a) + System.lineSeparator(), line(a));
    JsonNode text = JsonNodeFactory.instance.textNode("solo");
    assertEquals("\"solo\"" + System.lineSeparator(), line(text));
  }

  @Test
  void refusesNodesItCannotWriteFaithfully() {
    ObjectNode doc = Json.object();
    doc.putPOJO("pojo", new Object());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> line(doc));
    assertEquals("cannot write a POJO JSON node", e.getMessage());
  }
}
