package dev.idxkit.core;

/**
 * When a commit is durable. {@code SYNC} (default): commit returns after the log is fsynced. {@code
 * ASYNC}: commit returns after the log write reaches the OS; a background flush fsyncs within
 * {@code asyncFlushMillis}, so a power loss may lose the last moments of commits but never leaves
 * one half applied. {@code OFF}: the log is fsynced only at checkpoints and close.
 */
public enum Durability {
  SYNC,
  ASYNC,
  OFF
}
