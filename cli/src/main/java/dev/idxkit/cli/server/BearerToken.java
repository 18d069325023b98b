package dev.idxkit.cli.server;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The shared secret of {@code --token-file}: a request is let in when its {@code Authorization}
 * header is {@code Bearer <token>}.
 *
 * <p>The comparison must not tell an attacker how much of a guess was right. {@link
 * MessageDigest#isEqual} takes the same time for any two arrays of one length, so both sides are
 * compared as SHA-256 digests: equal length always, and the time does not even depend on the
 * token's length. Only the digest is kept in memory.
 *
 * <p>The file holds the token on its first line; surrounding blanks and the line break are ignored.
 * A token must be at least {@value #MIN_LENGTH} visible ASCII characters (e.g. {@code openssl rand
 * -hex 32}); anything shorter is refused as too easy to guess.
 */
public final class BearerToken {
  public static final int MIN_LENGTH = 16;
  private static final String SCHEME = "bearer ";

  private final byte[] digest;

  private BearerToken(byte[] digest) {
    this.digest = digest;
  }

  /** Reads the token from {@code file} (see the class comment for the format). */
  public static BearerToken fromFile(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new InvalidInputException("--token-file : " + file + " does not exist");
    } catch (IOException e) {
      throw new IdxkitIOException("cannot read the token file " + file, e);
    }
    String first = text.strip().split("\\R", 2)[0].strip();
    try {
      return of(first);
    } catch (InvalidInputException e) {
      throw new InvalidInputException("--token-file : " + file + ": " + e.getMessage());
    }
  }

  /** A token given as text. */
  public static BearerToken of(String token) {
    if (token.length() < MIN_LENGTH) {
      throw new InvalidInputException(
          "token of "
              + token.length()
              + " characters (expected: at least "
              + MIN_LENGTH
              + ", e.g. from 'openssl rand -hex 32')");
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c <= 0x20 || c >= 0x7f) {
        throw new InvalidInputException(
            "token has a blank, control or non-ASCII character at position "
                + (i + 1)
                + " (expected: visible ASCII only, as an HTTP header carries it)");
      }
    }
    return new BearerToken(sha256(token));
  }

  /** True when {@code authorization} (the header's value, or null) carries this token. */
  public boolean matches(String authorization) {
    String given = "";
    if (authorization != null
        && authorization.length() > SCHEME.length()
        && authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      given = authorization.substring(SCHEME.length()).strip();
    }
    // Always hash and compare, so a missing header costs what a wrong one does.
    return MessageDigest.isEqual(digest, sha256(given));
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return "BearerToken[hidden]";
  }
}
