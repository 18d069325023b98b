package dev.idxkit.loader.input;

import dev.idxkit.core.InvalidInputException;

/**
 * How to read a JSON Lines file.
 *
 * @param ignoreUnknownFields true to skip object fields that name no column; false (default) to
 *     reject the line, which catches a misspelt field name instead of loading NULLs
 * @param chunkBytes bytes per chunk, the unit of parallel parsing (default 1 MiB)
 * @param maxLineBytes the longest line accepted; a longer one is rejected and skipped (default 16
 *     MiB)
 */
public record JsonLinesOptions(boolean ignoreUnknownFields, int chunkBytes, int maxLineBytes) {
  public JsonLinesOptions {
    if (chunkBytes < 16 || chunkBytes > (1 << 30)) {
      throw new InvalidInputException("chunkBytes : " + chunkBytes + " (expected: 16..2^30)");
    }
    if (maxLineBytes < 16 || maxLineBytes > (1 << 30)) {
      throw new InvalidInputException("maxLineBytes : " + maxLineBytes + " (expected: 16..2^30)");
    }
  }

  public static JsonLinesOptions defaults() {
    return new JsonLinesOptions(false, CsvOptions.DEFAULT_CHUNK_BYTES, 16 << 20);
  }

  public JsonLinesOptions withIgnoreUnknownFields(boolean ignore) {
    return new JsonLinesOptions(ignore, chunkBytes, maxLineBytes);
  }

  public JsonLinesOptions withChunkBytes(int chunkBytes) {
    return new JsonLinesOptions(ignoreUnknownFields, chunkBytes, maxLineBytes);
  }

  public JsonLinesOptions withMaxLineBytes(int maxLineBytes) {
    return new JsonLinesOptions(ignoreUnknownFields, chunkBytes, maxLineBytes);
  }
}
