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
 * <p>A campaign whose units have named steps worth aiming at (a rebuild's scan, build and publish)
 * draws its own plans with {@link #phase}: the k-th {@code PHASE name} line, then a delay.
 *
 * @param target the line to wait for
 * @param acks for {@link Target#ACK}: how many ACK lines; for {@link Target#PHASE}: how many lines
 *     of that phase
 * @param delayNanos then wait this long before SIGKILL
 * @param phase for {@link Target#PHASE}: the phase name, else null
 */
record KillPlan(Target target, int acks, long delayNanos, String phase) {
  /** The line a kill waits for. */
  enum Target {
    OPEN,
    RECOVERY,
    READY,
    ACK,
    PHASE
  }

  KillPlan(Target target, int acks, long delayNanos) {
    this(target, acks, delayNanos, null);
  }

  /** Kill {@code delayNanos} after the {@code count}-th {@code PHASE name} line. */
  static KillPlan phase(String name, int count, long delayNanos) {
    return new KillPlan(Target.PHASE, count, delayNanos, name);
  }

  /** The delays {@link #draw} uses after READY and ACK: 0, or under 1, 10 or 60 ms. */
  static long shortDelay(SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 -> 0;
      case 1 -> r.nextLong(1_000_000L);
      case 2 -> r.nextLong(10_000_000L);
      default -> r.nextLong(60_000_000L);
    };
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
    return new KillPlan(t, acks, shortDelay(r));
  }

  /**
   * Whether {@code line} is it, arriving after {@code acksSoFar} ACK lines and {@code phaseSoFar}
   * lines of this plan's phase (both counts include the line itself).
   */
  boolean isTarget(ChildLine line, int acksSoFar, int phaseSoFar) {
    return switch (target) {
      case OPEN -> line.is(ChildLine.OPEN);
      case RECOVERY -> line.is(ChildLine.PHASE) && line.phase().equals("recovery");
      case READY -> line.is(ChildLine.READY);
      case ACK -> line.is(ChildLine.ACK) && acksSoFar == acks;
      case PHASE -> isPhase(line) && phaseSoFar == acks;
    };
  }

  /** Whether {@code line} is a {@code PHASE} line of this plan's phase. */
  boolean isPhase(ChildLine line) {
    return phase != null && line.is(ChildLine.PHASE) && line.phase().equals(phase);
  }

  @Override
  public String toString() {
    String line =
        switch (target) {
          case OPEN -> "OPEN";
          case RECOVERY -> "PHASE recovery";
          case READY -> "READY";
          case ACK -> "ACK #" + acks;
          case PHASE -> "PHASE " + phase + " #" + acks;
        };
    return "kill " + String.format("%.3f", delayNanos / 1e6) + " ms after " + line;
  }
}
