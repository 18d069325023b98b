package dev.idxkit.crash;

import java.util.SplittableRandom;

/**
 * When to kill one child: after a chosen line, then after a delay measured from that line. This is
 * the one place a delay is the point rather than a wait for a condition - the kill must land
 * wherever the child happens to be.
 *
 * <p>The line is {@code OPEN} for about one kill in ten (the delay then spans JVM warm-up, open and
 * recovery of what the previous child left, so kills land inside recovery and its checkpoint),
 * {@code READY} for another tenth (the first unit), else the k-th {@code ACK} with k uniform in
 * 1..maxAcks. The delay is zero for a quarter of the kills, under 1 ms, under 10 ms or under 60 ms
 * for the rest, so kills hit every step of a unit, not only its start.
 *
 * @param afterOpen wait for {@code OPEN} (acks is then 0)
 * @param acks wait for this many {@code ACK} lines; 0 without afterOpen means {@code READY}
 * @param delayNanos then wait this long before SIGKILL
 */
record KillPlan(boolean afterOpen, int acks, long delayNanos) {
  static KillPlan draw(SplittableRandom r, int maxAcks) {
    int where = r.nextInt(10);
    if (where == 0) {
      return new KillPlan(true, 0, r.nextLong(500_000_000L));
    }
    int acks = where == 1 ? 0 : 1 + r.nextInt(maxAcks);
    int d = r.nextInt(4);
    long delay =
        switch (d) {
          case 0 -> 0;
          case 1 -> r.nextLong(1_000_000L);
          case 2 -> r.nextLong(10_000_000L);
          default -> r.nextLong(60_000_000L);
        };
    return new KillPlan(false, acks, delay);
  }

  /** Whether {@code line}, arriving after {@code acksSoFar} ACK lines (itself included), is it. */
  boolean isTarget(ChildLine line, int acksSoFar) {
    if (afterOpen) {
      return line.is(ChildLine.OPEN);
    }
    if (acks == 0) {
      return line.is(ChildLine.READY);
    }
    return line.is(ChildLine.ACK) && acksSoFar == acks;
  }

  @Override
  public String toString() {
    String line = afterOpen ? "OPEN" : acks == 0 ? "READY" : "ACK #" + acks;
    return "kill " + String.format("%.3f", delayNanos / 1e6) + " ms after " + line;
  }
}
