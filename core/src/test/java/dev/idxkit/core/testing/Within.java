package dev.idxkit.core.testing;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a call that used to hang on a daemon thread and fails the test once a limit passes, instead
 * of hanging the suite. Why not JUnit's preemptive timeout: what hung waits uninterruptibly, and a
 * JUnit timeout thread left waiting keeps the test JVM from exiting; a daemon thread does not.
 */
public final class Within {
  private Within() {}

  /** What {@link #seconds} throws when the call is still running at its limit. */
  public static final class Hung extends AssertionError {
    Hung(String message) {
      super(message);
    }
  }

  /**
   * {@code call}'s result, or what it threw, or {@link Hung} naming {@code what} after {@code
   * seconds} (the call's thread is then left waiting, and what it holds stays held).
   */
  public static <T> T seconds(int seconds, String what, Callable<T> call) throws Exception {
    CompletableFuture<T> f = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                f.complete(call.call());
              } catch (Throwable e) {
                f.completeExceptionally(e);
              }
            },
            "within-" + what);
    t.setDaemon(true);
    t.start();
    try {
      return f.get(seconds, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new Hung(what + " still running after " + seconds + " s: it hangs");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception x) {
        throw x;
      }
      if (e.getCause() instanceof Error x) {
        throw x;
      }
      throw e;
    }
  }
}
