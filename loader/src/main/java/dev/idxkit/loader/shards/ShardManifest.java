package dev.idxkit.loader.shards;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.idxkit.core.Catalog;
import dev.idxkit.core.Catalog.IndexInfo;
import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import dev.idxkit.core.schema.IndexColumn;
import dev.idxkit.core.spi.KeyEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code _manifest.json} of a shard set: written by the job's driver last, after every shard
 * was renamed into place, so a reader sees either no manifest or a complete set.
 *
 * <h2>Format (version {@value #FORMAT_VERSION})</h2>
 *
 * <pre>
 * {
 *   "format": "idxkit-shards", "formatVersion": 1, "keyFormatVersion": 1,
 *   "table": "lineitem", "keyIndex": "lineitem_pk", "keyColumns": ["l_orderkey", "l_linenumber"],
 *   "pageSize": 8192, "rows": 300000, "ddl": "CREATE TABLE ...",
 *   "shards": [
 *     { "name": "shard-00000", "rows": 75000,
 *       "firstKeyHex": "01800000000000000101800000001", "lastKeyHex": "...",
 *       "firstKey": [1, 1], "lastKey": [74754, 3],
 *       "entries": { "lineitem_pk": 75000, "lineitem_partkey_ix": 75000, ... } }, ...
 *   ]
 * }
 * </pre>
 *
 * Shards are listed in key order and their ranges are disjoint: shard i's last key is below shard
 * i+1's first key. Keys are idxkit's encoded keys ({@link KeyEncoder}, format {@code
 * keyFormatVersion}) as hex, which is what readers compare; the typed values (numbers, strings, ISO
 * dates, decimals as strings) are for people. An empty shard has null keys.
 */
public record ShardManifest(ShardSchema schema, int pageSize, long rows, List<ManifestShard> shards)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String FILE_NAME = "_manifest.json";
  public static final String FORMAT = "idxkit-shards";
  public static final int FORMAT_VERSION = 1;

  public ShardManifest {
    shards = List.copyOf(shards);
  }

  /** Shard {@code i}'s directory name: {@code shard-00000}, in key order. */
  public static String shardName(int i) {
    return String.format(java.util.Locale.ROOT, "shard-%05d", i);
  }

  /** Writes the manifest into {@code dir} atomically (a temp file renamed into place). */
  public void write(Path dir) {
    Path tmp = dir.resolve(FILE_NAME + ".tmp");
    Path file = dir.resolve(FILE_NAME);
    Catalog catalog = new Catalog(schema.schema());
    IndexInfo key = catalog.index(schema.keyIndex());
    KeyEncoder encoder = key.encoder();
    try (OutputStream out = Files.newOutputStream(tmp);
        JsonGenerator g = new JsonFactory().createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeStringField("format", FORMAT);
      g.writeNumberField("formatVersion", FORMAT_VERSION);
      g.writeNumberField("keyFormatVersion", KeyEncoder.FORMAT_VERSION);
      g.writeStringField("table", schema.table());
      g.writeStringField("keyIndex", schema.keyIndex());
      g.writeArrayFieldStart("keyColumns");
      for (IndexColumn c : key.def().columns()) {
        g.writeString(key.table().columns().get(c.column()).name());
      }
      g.writeEndArray();
      g.writeNumberField("pageSize", pageSize);
      g.writeNumberField("rows", rows);
      g.writeStringField("ddl", schema.ddl());
      g.writeArrayFieldStart("shards");
      for (ManifestShard s : shards) {
        g.writeStartObject();
        g.writeStringField("name", s.name());
        g.writeNumberField("rows", s.rows());
        g.writeStringField("firstKeyHex", ManifestShard.hex(s.firstKey()));
        g.writeStringField("lastKeyHex", ManifestShard.hex(s.lastKey()));
        writeValues(g, "firstKey", s.firstKey(), encoder);
        writeValues(g, "lastKey", s.lastKey(), encoder);
        g.writeObjectFieldStart("entries");
        for (var e : s.entries().entrySet()) {
          g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new IdxkitIOException("cannot write " + tmp, e);
    }
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot rename " + tmp + " to " + file, e);
    }
  }

  private static void writeValues(JsonGenerator g, String field, byte[] key, KeyEncoder encoder)
      throws IOException {
    if (key == null) {
      g.writeNullField(field);
      return;
    }
    g.writeArrayFieldStart(field);
    for (Object v : encoder.decode(key, 0, key.length)) {
      if (v == null) {
        g.writeNull();
      } else if (v instanceof Long l) {
        g.writeNumber(l);
      } else if (v instanceof Integer i) {
        g.writeNumber(i);
      } else if (v instanceof Short s) {
        g.writeNumber(s);
      } else if (v instanceof Double d) {
        g.writeNumber(d);
      } else if (v instanceof Boolean b) {
        g.writeBoolean(b);
      } else if (v instanceof BigDecimal d) {
        g.writeString(d.toPlainString());
      } else if (v instanceof byte[] b) {
        g.writeString(HexFormat.of().formatHex(b));
      } else {
        g.writeString(v.toString());
      }
    }
    g.writeEndArray();
  }

  /** Reads {@code dir/_manifest.json}; a missing or malformed manifest is bad input. */
  public static ShardManifest read(Path dir) {
    Path file = dir.resolve(FILE_NAME);
    try (JsonParser p = new JsonFactory().createParser(Files.readAllBytes(file))) {
      return parse(p, file);
    } catch (NoSuchFileException e) {
      throw new InvalidInputException(
          file
              + ": no manifest (the shard set is incomplete, or "
              + dir
              + " is not the output directory of a shard job)");
    } catch (JsonProcessingException e) {
      throw new InvalidInputException(
          file
              + ":"
              + e.getLocation().getLineNr()
              + ":"
              + e.getLocation().getColumnNr()
              + ": malformed JSON: "
              + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read " + file, e);
    }
  }

  private static ShardManifest parse(JsonParser p, Path file) throws IOException {
    expect(p, p.nextToken() == JsonToken.START_OBJECT, file, "an object");
    Map<String, Object> top = new LinkedHashMap<>();
    List<ManifestShard> shards = new ArrayList<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      JsonToken t = p.nextToken();
      if (f.equals("shards")) {
        expect(p, t == JsonToken.START_ARRAY, file, "\"shards\" to be an array");
        while (p.nextToken() == JsonToken.START_OBJECT) {
          shards.add(parseShard(p, file));
        }
      } else if (t.isScalarValue()) {
        top.put(f, t == JsonToken.VALUE_NULL ? null : p.getValueAsString());
      } else {
        p.skipChildren();
      }
    }
    if (!FORMAT.equals(top.get("format"))) {
      throw new InvalidInputException(
          file + ": format " + top.get("format") + " (expected: " + FORMAT + ")");
    }
    int version = intField(top, "formatVersion", file);
    if (version != FORMAT_VERSION) {
      throw new InvalidInputException(
          file + ": formatVersion " + version + " (expected: " + FORMAT_VERSION + ")");
    }
    int keyVersion = intField(top, "keyFormatVersion", file);
    if (keyVersion != KeyEncoder.FORMAT_VERSION) {
      throw new InvalidInputException(
          file
              + ": keyFormatVersion "
              + keyVersion
              + " (expected: "
              + KeyEncoder.FORMAT_VERSION
              + ")");
    }
    ShardSchema schema =
        new ShardSchema(
            stringField(top, "ddl", file),
            stringField(top, "table", file),
            stringField(top, "keyIndex", file));
    return new ShardManifest(
        schema, intField(top, "pageSize", file), longField(top, "rows", file), shards);
  }

  private static ManifestShard parseShard(JsonParser p, Path file) throws IOException {
    Map<String, Object> fields = new LinkedHashMap<>();
    Map<String, Long> entries = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String f = p.currentName();
      JsonToken t = p.nextToken();
      if (f.equals("entries") && t == JsonToken.START_OBJECT) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String ix = p.currentName();
          p.nextToken();
          entries.put(ix, p.getValueAsLong());
        }
      } else if (t.isScalarValue()) {
        fields.put(f, t == JsonToken.VALUE_NULL ? null : p.getValueAsString());
      } else {
        p.skipChildren();
      }
    }
    String name = stringField(fields, "name", file);
    if (name.contains("/") || name.contains("\\") || name.startsWith(".")) {
      throw new InvalidInputException(file + ": shard name " + name + " (expected: shard-NNNNN)");
    }
    return new ManifestShard(
        name,
        longField(fields, "rows", file),
        unhex((String) fields.get("firstKeyHex"), file),
        unhex((String) fields.get("lastKeyHex"), file),
        entries);
  }

  private static byte[] unhex(String s, Path file) {
    if (s == null) {
      return null;
    }
    try {
      return HexFormat.of().parseHex(s);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(file + ": key " + s + " is not hex");
    }
  }

  private static void expect(JsonParser p, boolean ok, Path file, String what) {
    if (!ok) {
      var loc = p.currentLocation();
      throw new InvalidInputException(
          file + ":" + loc.getLineNr() + ":" + loc.getColumnNr() + ": expected " + what);
    }
  }

  private static String stringField(Map<String, Object> m, String f, Path file) {
    Object v = m.get(f);
    if (v == null) {
      throw new InvalidInputException(file + ": field \"" + f + "\" missing");
    }
    return v.toString();
  }

  private static long longField(Map<String, Object> m, String f, Path file) {
    String v = stringField(m, f, file);
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new InvalidInputException(
          file + ": field \"" + f + "\" : " + v + " (expected: a number)");
    }
  }

  private static int intField(Map<String, Object> m, String f, Path file) {
    return Math.toIntExact(longField(m, f, file));
  }
}
