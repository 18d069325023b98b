package dev.idxkit.cli.commands;

import java.util.concurrent.CountDownLatch;

/**
 * A stand-in for an experiment's main, run by {@link BenchCommandTest} in a child JVM: {@code echo
 * CODE ARGS...} prints its arguments on stdout and a line on stderr and exits with CODE; {@code
 * block} says "ready" and waits until it is killed.
 */
public final class BenchChildStub {
  private BenchChildStub() {}

  public static void main(String[] args) throws InterruptedException {
    if (args[0].equals("block")) {
      System.out.println("ready");
      System.out.flush();
      new CountDownLatch(1).await();
      return;
    }
    StringBuilder sb = new StringBuilder("args:");
    for (int i = 2; i < args.length; i++) {
      sb.append(' ').append(args[i]);
    }
    System.out.println(sb);
    System.out.println("second line");
    System.err.println("to stderr");
    System.exit(Integer.parseInt(args[1]));
  }
}
