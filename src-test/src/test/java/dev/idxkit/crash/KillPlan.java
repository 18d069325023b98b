package dev.idxkit.crash;

import java.util.SplittableRandom;

/**
 * When to kill one child: after a chosen line, then after a delay measured from that line. This is
 * the one place a delay is the point rather than a wait for a condition - the kill must land
 * wherever the child happens to be.
 *
 * <p>Targets, drawn per kill:
 *
 * <ul>
 *   <li>{@code OPEN} (1 in 20), then 0-1.5 s: JVM warm-up, the read-only open, recovery, or the
 *       first units, whichever the time reaches;
 *   <li>{@code PHASE recovery} (1 in 10), then 0-150 ms: inside the read-write open's recovery and
 *       its checkpoint of what the previous child left;
 *   <li>{@code READY} (1 in 20): the first unit after recovery;
 *   <li>otherwise the k-th {@code ACK}, k uniform in 1..maxAcks.
 * </ul>
 *
 * After READY and ACK targets the delay is zero for a quarter of the kills and under 1 ms, 10 ms or
 * 60 ms for the rest, so kills hit every step of a unit, not only its start.
 *
 * @param target the line to wait for
 * @param acks for {@link Target#ACK}: how many ACK lines
 * @param delayNanos then wait this long before SIGKILL
 */
record KillPlan(Target target, int acks, long delayNanos) {
  /** The line a kill waits for. */
  enum Target {
    OPEN,
    RECOVERY,
    READY,
    ACK
  }

  static KillPlan draw(SplittableRandom r, int maxAcks) {
    int where = r.nextInt(20);
    if (where == 0) {
      return new KillPlan(Target.OPEN, 0, r.nextLong(1_500_000_000L));
    }
    if (where <= 2) {
      return new KillPlan(Target.RECOVERY, 0, r.nextLong(150_000_000L));
    }
    Target t = where == 3 ? Target.READY : Target.ACK;
    int acks = t == Target.ACK ? 1 + r.nextInt(maxAcks) : 0;
    long delay =
        switch (r.nextInt(4)) {
          case 0 -> 0;
          case 1 -> r.nextLong(1_000_000L);
          case 2 -> r.nextLong(10_000_000L);
          default -> r.nextLong(60_000_000L);
        };
    return new KillPlan(t, acks, delay);
  }

  /** Whether {@code line}, arriving after {@code acksSoFar} ACK lines (itself included), is it. */
  boolean isTarget(ChildLine line, int acksSoFar) {
    return switch (target) {
      case OPEN -> line.is(ChildLine.OPEN);
      case RECOVERY -> line.is(ChildLine.PHASE) && line.phase().equals("recovery");
      case READY -> line.is(ChildLine.READY);
      case ACK -> line.is(ChildLine.ACK) && acksSoFar == acks;
    };
  }

  @Override
  public String toString() {
    String line =
        switch (target) {
          case OPEN -> "OPEN";
          case RECOVERY -> "PHASE recovery";
          case READY -> "READY";
          case ACK -> "ACK #" + acks;
        };
    return "kill " + String.format("%.3f", delayNanos / 1e6) + " ms after " + line;
  }
}
