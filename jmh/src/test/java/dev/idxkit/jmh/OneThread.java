package dev.idxkit.jmh;

import org.openjdk.jmh.infra.ThreadParams;

/** The thread parameters JMH gives the only thread of a one-thread run, for calling set-ups. */
public final class OneThread {
  public static final ThreadParams PARAMS = new ThreadParams(0, 1, 0, 1, 0, 1, 0, 1, 0, 1);

  private OneThread() {}
}
