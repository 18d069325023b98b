/**
 * The corruption sweep: bases built by the loader and by transactions and the rebuilder ({@link
 * dev.idxkit.corrupt.SweepDatabase}), damaged at places of every kind ({@link
 * dev.idxkit.corrupt.Targets}, {@link dev.idxkit.corrupt.Mutation}), opened, checked and questioned
 * ({@link dev.idxkit.corrupt.Answers}) in victim JVMs ({@link dev.idxkit.corrupt.Victim}, {@link
 * dev.idxkit.corrupt.VictimProcess}); the entry point and the summary line are {@link
 * dev.idxkit.corrupt.CorruptionSweepIT}. {@link dev.idxkit.corrupt.MetaFallbackTest} holds the one
 * bug the sweep found so far (a stale older meta slot), fixed.
 */
package dev.idxkit.corrupt;
