package dev.idxkit.crash;

import dev.idxkit.core.testing.JavaCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One crash child process: started with this JVM's {@code java}, class path and module/system
 * flags, its stdout read line by line on a named thread into a queue, its stderr sent to a file.
 *
 * <p>Call order: {@link #start}, {@link #next} until the line the kill waits for, {@link #kill}
 * (SIGKILL, then waits for the exit and for the reader to drain the pipe), {@link #lines()} for
 * everything the child printed, {@link #close()} (kills a child still running; idempotent).
 *
 * <p>{@link #kill} returns the exit code so the runner can check it is 128 + 9: the child died of
 * SIGKILL, not of its own failure.
 */
final class ChildJvm implements AutoCloseable {
  /** Exit code of a process killed by SIGKILL, as Java reports it on Linux. */
  static final int SIGKILL_EXIT = 128 + 9;

  private static final ChildLine EOF = new ChildLine("EOF", -1, "");

  private final Process process;
  private final BlockingQueue<ChildLine> arrived = new LinkedBlockingQueue<>();
  private final List<ChildLine> lines = new ArrayList<>();
  private final Thread reader;
  private volatile IOException readFailure;
  private boolean closed;

  private ChildJvm(Process process, String threadName) {
    this.process = process;
    this.reader = new Thread(this::readLines, threadName);
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code CrashChild <dir> <campaign> <seed>}; its stderr replaces {@code stderr}. */
  static ChildJvm start(
      Path dir, String campaign, long seed, String heap, Path stderr, String threadName)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command(dir, campaign, seed, heap));
    pb.redirectError(stderr.toFile());
    Process p = pb.start();
    p.getOutputStream().close(); // the child reads nothing
    return new ChildJvm(p, threadName);
  }

  /**
   * The child's command line: the same {@code java}, class path, {@code --add-*} and {@code -D}
   * flags (the Chronicle Bytes flags the build gives tests), plus the campaign's (small) heap and
   * C1 only, since a child lives a second or two.
   */
  private static List<String> command(Path dir, String campaign, long seed, String heap) {
    List<String> cmd = JavaCommand.inheritingFlags();
    cmd.addAll(List.of("-ea", "-Xmx" + heap, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
    cmd.add(CrashChild.class.getName());
    cmd.addAll(List.of(dir.toString(), campaign, Long.toString(seed)));
    return cmd;
  }

  long pid() {
    return process.pid();
  }

  /**
   * The next line the child printed, waiting until {@code deadlineNanos} ({@link System#nanoTime});
   * null once its stdout has ended (it exited).
   *
   * @throws AssertionError when the deadline passes first (the child hangs)
   */
  ChildLine next(long deadlineNanos) throws InterruptedException {
    ChildLine l = arrived.poll(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    if (l == null) {
      throw new AssertionError("child " + pid() + " printed nothing more before the deadline");
    }
    if (l == EOF) {
      arrived.add(EOF); // stays at the end for later calls
      return null;
    }
    return l;
  }

  /**
   * Sends SIGKILL (if the child still runs), waits for the exit and for the reader to take the last
   * lines out of the pipe, and returns the exit code.
   *
   * <p>Through {@link ProcessHandle}, not {@link Process#destroyForcibly()}: on Linux both send
   * SIGKILL, but the latter also closes the child's stdout on our side, discarding lines still in
   * the pipe - an ACK the child printed just before dying would be lost.
   */
  int kill() throws InterruptedException {
    process.toHandle().destroyForcibly();
    int code = process.waitFor();
    reader.join();
    return code;
  }

  /** Everything the child printed; complete once {@link #kill} returned. */
  List<ChildLine> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  /** Why reading stdout stopped early, if it did (null: it reached the end). */
  IOException readFailure() {
    return readFailure;
  }

  @Override
  public void close() throws InterruptedException {
    if (closed) {
      return;
    }
    closed = true;
    if (process.isAlive()) {
      kill();
    }
  }

  private void readLines() {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String s = r.readLine(); s != null; s = r.readLine()) {
        ChildLine l = ChildLine.parse(s);
        synchronized (lines) {
          lines.add(l);
        }
        arrived.add(l);
      }
    } catch (IOException e) {
      readFailure = e;
    } finally {
      arrived.add(EOF);
    }
  }
}
