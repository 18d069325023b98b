package dev.idxkit.core.schema;

import dev.idxkit.core.InvalidInputException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The catalog as bytes, for the meta slot. Big-endian; ids are not stored, they are positions:
 *
 * <pre>
 * offset  bytes  field
 *  0      4      magic "IXSC" (0x49585343)
 *  4      2      format version ({@value #FORMAT_VERSION})
 *  6      4      total length in bytes, this header and the checksum included
 * 10      1      area count A (2..255); areas follow in id order, 0 = data and 1 = index
 *        A x     str name
 *         2      table count T (0..65535); tables follow in id order from 1
 *        T x     str name | u8 area id | u16 column count C (1..1000)
 *                C x  str name | u8 type code | u32 length | u8 precision | u8 scale
 *                     | u8 flags (bit 0: nullable; other bits 0)
 *         2      index count I (0..65535); indexes follow in id order from 1
 *        I x     str name | u16 table id (1..T) | u8 area id | u8 flags (bit 0: unique)
 *                | u8 key column count K (1..16)
 *                K x  u16 column position | u8 flags (bit 0: descending)
 * end-4   4      CRC32C of every byte before it
 *
 * str  = u16 byte length (1..512) | UTF-8 bytes
 * type = 1 BIGINT, 2 INT, 3 SMALLINT, 4 DOUBLE, 5 DECIMAL, 6 VARCHAR, 7 TEXT, 8 DATE,
 *        9 TIMESTAMP, 10 BOOLEAN, 11 VARBINARY (fixed here, independent of enum order)
 * </pre>
 *
 * <p>{@link #decode} trusts nothing: it checks magic, version, length and checksum, bounds every
 * count and length against the bytes that remain before allocating, rebuilds the schema through the
 * same checks as {@link Schema#withTable} and friends, and refuses trailing bytes. Any damage is an
 * {@link IllegalArgumentException} whose message says what was wrong at which byte; the caller
 * wraps it with the file name (as a {@code CorruptDatabaseException}).
 */
public final class SchemaCodec {
  public static final int MAGIC = 0x49585343;
  public static final int FORMAT_VERSION = 1;

  private static final int HEADER = 10;
  private static final int TRAILER = 4;
  private static final int MAX_NAME_BYTES = 512;
  private static final int FLAG_SET = 1;
  private static final TypeKind[] TYPE_CODES = {
    null,
    TypeKind.BIGINT,
    TypeKind.INT,
    TypeKind.SMALLINT,
    TypeKind.DOUBLE,
    TypeKind.DECIMAL,
    TypeKind.VARCHAR,
    TypeKind.TEXT,
    TypeKind.DATE,
    TypeKind.TIMESTAMP,
    TypeKind.BOOLEAN,
    TypeKind.VARBINARY
  };

  private SchemaCodec() {}

  public static byte[] encode(Schema schema) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeShort(FORMAT_VERSION);
      out.writeInt(0); // total length, patched below
      out.writeByte(schema.areas().size());
      for (AreaDef a : schema.areas()) {
        writeName(out, a.name());
      }
      out.writeShort(schema.tables().size());
      for (TableDef t : schema.tables()) {
        writeName(out, t.name());
        out.writeByte(t.areaId());
        out.writeShort(t.columns().size());
        for (ColumnDef c : t.columns()) {
          writeName(out, c.name());
          out.writeByte(typeCode(c.type().kind()));
          out.writeInt(c.type().length());
          out.writeByte(c.type().precision());
          out.writeByte(c.type().scale());
          out.writeByte(c.nullable() ? FLAG_SET : 0);
        }
      }
      out.writeShort(schema.indexes().size());
      for (IndexDef i : schema.indexes()) {
        writeName(out, i.name());
        out.writeShort(i.tableId());
        out.writeByte(i.areaId());
        out.writeByte(i.unique() ? FLAG_SET : 0);
        out.writeByte(i.columns().size());
        for (IndexColumn c : i.columns()) {
          out.writeShort(c.column());
          out.writeByte(c.descending() ? FLAG_SET : 0);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    byte[] body = bytes.toByteArray();
    byte[] result = new byte[body.length + TRAILER];
    System.arraycopy(body, 0, result, 0, body.length);
    ByteBuffer buffer = ByteBuffer.wrap(result);
    buffer.putInt(6, result.length);
    buffer.putInt(body.length, crc(result, body.length));
    return result;
  }

  /**
   * The schema {@link #encode} wrote.
   *
   * @throws IllegalArgumentException if the bytes are damaged, truncated or of another format
   */
  public static Schema decode(byte[] bytes) {
    if (bytes == null) {
      throw new IllegalArgumentException("schema: no bytes");
    }
    if (bytes.length < HEADER + 1 + 2 * 3 + TRAILER) {
      throw new IllegalArgumentException(
          "schema: " + bytes.length + " bytes, too short for a schema (at least 21)");
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    int magic = buffer.getInt(0);
    if (magic != MAGIC) {
      throw new IllegalArgumentException(
          String.format("schema: magic 0x%08X (expected: 0x%08X \"IXSC\")", magic, MAGIC));
    }
    int version = Short.toUnsignedInt(buffer.getShort(4));
    if (version != FORMAT_VERSION) {
      throw new IllegalArgumentException(
          "schema: format version " + version + " (expected: " + FORMAT_VERSION + ")");
    }
    long length = Integer.toUnsignedLong(buffer.getInt(6));
    if (length != bytes.length) {
      throw new IllegalArgumentException(
          "schema: "
              + bytes.length
              + " bytes but the header says "
              + length
              + (length > bytes.length ? " (truncated)" : ""));
    }
    int stored = buffer.getInt(bytes.length - TRAILER);
    int actual = crc(bytes, bytes.length - TRAILER);
    if (stored != actual) {
      throw new IllegalArgumentException(
          String.format(
              "schema: checksum mismatch (stored CRC32C 0x%08X, computed 0x%08X)", stored, actual));
    }
    return new Reader(bytes).schema();
  }

  /** Reads the body, every read bounded by the bytes before the checksum. */
  private static final class Reader {
    private final byte[] bytes;
    private final int limit;
    private int pos = HEADER;

    Reader(byte[] bytes) {
      this.bytes = bytes;
      this.limit = bytes.length - TRAILER;
    }

    Schema schema() {
      SchemaBuilder b = new SchemaBuilder();
      int areas = u8("area count");
      if (areas < 2 || areas > AreaDef.MAX_AREAS) {
        throw fail("area count " + areas + " (expected: 2.." + AreaDef.MAX_AREAS + ")");
      }
      for (int a = 0; a < areas; a++) {
        int at = pos;
        String name = str("area " + a + " name");
        if (a < 2) {
          String expected = a == 0 ? AreaDef.DATA : AreaDef.INDEX;
          if (!name.equals(expected)) {
            throw failAt(at, "area " + a + " is named " + name + " (expected: " + expected + ")");
          }
        } else {
          add(at, () -> b.addArea(name));
        }
      }
      int tables = u16("table count");
      for (int t = 1; t <= tables; t++) {
        int at = pos;
        String what = "table " + t;
        String name = str(what + " name");
        int area = u8(what + " area id");
        int columnCount = u16(what + " column count");
        if (columnCount < 1 || columnCount > Schema.MAX_COLUMNS) {
          throw fail(
              what + " column count " + columnCount + " (expected: 1.." + Schema.MAX_COLUMNS + ")");
        }
        List<ColumnDef> columns = new ArrayList<>(Math.min(columnCount, remaining() / 10 + 1));
        for (int c = 0; c < columnCount; c++) {
          columns.add(column(what + " column " + c));
        }
        add(at, () -> b.addTable(name, columns, area));
      }
      int indexes = u16("index count");
      for (int i = 1; i <= indexes; i++) {
        int at = pos;
        String what = "index " + i;
        String name = str(what + " name");
        int table = u16(what + " table id");
        int area = u8(what + " area id");
        boolean unique = flag(what + " flags");
        int keyCount = u8(what + " key column count");
        if (keyCount < 1 || keyCount > Schema.MAX_KEY_COLUMNS) {
          throw fail(
              what
                  + " key column count "
                  + keyCount
                  + " (expected: 1.."
                  + Schema.MAX_KEY_COLUMNS
                  + ")");
        }
        List<IndexColumn> key = new ArrayList<>(keyCount);
        for (int k = 0; k < keyCount; k++) {
          int column = u16(what + " key column " + k);
          key.add(new IndexColumn(column, flag(what + " key column " + k + " flags")));
        }
        add(at, () -> b.addIndex(name, table, key, unique, area));
      }
      if (pos != limit) {
        throw fail((limit - pos) + " bytes after the last index (expected: the checksum)");
      }
      return b.build();
    }

    private ColumnDef column(String what) {
      int at = pos;
      String name = str(what + " name");
      int code = u8(what + " type code");
      if (code < 1 || code >= TYPE_CODES.length) {
        throw failAt(
            pos - 1,
            what + " type code " + code + " (expected: 1.." + (TYPE_CODES.length - 1) + ")");
      }
      long length = Integer.toUnsignedLong(u32(what + " length"));
      int precision = u8(what + " precision");
      int scale = u8(what + " scale");
      boolean nullable = flag(what + " flags");
      if (length > Schema.MAX_LENGTH) {
        throw failAt(at, what + " length " + length + " (expected: 0.." + Schema.MAX_LENGTH + ")");
      }
      try {
        return new ColumnDef(
            name, new ColumnType(TYPE_CODES[code], (int) length, precision, scale), nullable);
      } catch (InvalidInputException e) {
        throw failAt(at, what + ": " + e.getMessage());
      }
    }

    private int u8(String what) {
      need(1, what);
      return bytes[pos++] & 0xFF;
    }

    private int u16(String what) {
      need(2, what);
      int v = ((bytes[pos] & 0xFF) << 8) | (bytes[pos + 1] & 0xFF);
      pos += 2;
      return v;
    }

    private int u32(String what) {
      need(4, what);
      int v = ByteBuffer.wrap(bytes, pos, 4).getInt();
      pos += 4;
      return v;
    }

    private boolean flag(String what) {
      int f = u8(what);
      if ((f & ~FLAG_SET) != 0) {
        throw failAt(pos - 1, what + String.format(" 0x%02X has unknown bits", f));
      }
      return f == FLAG_SET;
    }

    /** A name; it must be stored as the catalog stores names, in lower case. */
    private String str(String what) {
      int at = pos;
      String s = utf8(what);
      if (!s.equals(s.toLowerCase(Locale.ROOT))) {
        throw failAt(at, what + " '" + Names.shorten(s) + "' is not in lower case");
      }
      return s;
    }

    private String utf8(String what) {
      int n = u16(what + " length");
      if (n < 1 || n > MAX_NAME_BYTES) {
        throw failAt(pos - 2, what + " length " + n + " (expected: 1.." + MAX_NAME_BYTES + ")");
      }
      need(n, what);
      try {
        String s =
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes, pos, n))
                .toString();
        pos += n;
        return s;
      } catch (CharacterCodingException e) {
        throw fail(what + " is not valid UTF-8");
      }
    }

    private void need(int n, String what) {
      if (limit - pos < n) {
        throw fail("truncated: " + what + " needs " + n + " bytes, " + (limit - pos) + " left");
      }
    }

    private int remaining() {
      return limit - pos;
    }

    /** Runs a schema check; its refusal becomes a decode failure at the entry's first byte. */
    private void add(int at, Runnable check) {
      try {
        check.run();
      } catch (InvalidInputException e) {
        throw failAt(at, e.getMessage());
      }
    }

    private IllegalArgumentException fail(String detail) {
      return failAt(pos, detail);
    }

    private static IllegalArgumentException failAt(int at, String detail) {
      return new IllegalArgumentException("schema: " + detail + " (at byte " + at + ")");
    }
  }

  private static void writeName(DataOutputStream out, String name) throws IOException {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    out.writeShort(utf8.length);
    out.write(utf8);
  }

  private static int typeCode(TypeKind kind) {
    for (int code = 1; code < TYPE_CODES.length; code++) {
      if (TYPE_CODES[code] == kind) {
        return code;
      }
    }
    throw new IllegalStateException("no type code for " + kind);
  }

  private static int crc(byte[] bytes, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length);
    return (int) crc.getValue();
  }
}
