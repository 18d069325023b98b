package dev.idxkit.jmh.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bytes this process caused to be read from storage so far: {@code read_bytes} of {@code
 * /proc/self/io} (Linux, counted when a read request is submitted to the block layer, so it
 * includes the read-ahead a page fault or a {@code read} triggers, and nothing the page cache
 * served). The difference over a measurement, divided by its reads, is what one read cost the
 * device; for a mapping without advice that is the device's read-ahead window, not the chunk.
 */
final class DeviceReads {
  private static final Path PROC_IO = Path.of("/proc/self/io");

  private DeviceReads() {}

  /** The counter, or -1 when this system does not keep it. */
  static long bytes() {
    try {
      for (String line : Files.readAllLines(PROC_IO)) {
        if (line.startsWith("read_bytes:")) {
          return Long.parseLong(line.substring("read_bytes:".length()).trim());
        }
      }
    } catch (IOException | NumberFormatException | SecurityException e) {
      return -1; // not Linux, or no task I/O accounting in this kernel
    }
    return -1;
  }
}
