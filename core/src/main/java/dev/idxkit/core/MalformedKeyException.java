package dev.idxkit.core;

import dev.idxkit.core.spi.KeyEncoder;

/**
 * Bytes handed to {@link KeyEncoder#decode} are not a key of its layout: a bad NULL marker, a value
 * cut short, a string without its terminator, or bytes left over. Callers that know where the bytes
 * came from (a page, a run file) wrap it in their own corruption exception.
 */
public class MalformedKeyException extends IdxkitException {
  private static final long serialVersionUID = 1L;

  private final int offset;

  public MalformedKeyException(int offset, int length, String detail) {
    super("malformed key at byte " + offset + " of " + length + ": " + detail);
    this.offset = offset;
  }

  /** Offset within the key (not the array) where decoding failed. */
  public int offset() {
    return offset;
  }
}
