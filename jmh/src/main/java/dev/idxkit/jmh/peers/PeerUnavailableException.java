package dev.idxkit.jmh.peers;

/**
 * A peer cannot run on this machine (no PostgreSQL and no way to install it, a native library that
 * does not load): the experiment prints {@link #getMessage()} in one line and goes on without it.
 */
final class PeerUnavailableException extends Exception {
  private static final long serialVersionUID = 1L;

  PeerUnavailableException(String message) {
    super(message);
  }

  PeerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
