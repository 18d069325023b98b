package dev.idxkit.core.internal.txn;

import dev.idxkit.core.DatabaseLockedException;
import dev.idxkit.core.IdxkitIOException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The OS file lock on {@code <db>/lock}: exclusive for a read-write open, shared for read-only, so
 * one writer or several readers hold a database. The writer records its pid in the file for the
 * message a second opener gets.
 */
final class DirectoryLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  static DirectoryLock acquire(Path dir, boolean shared) {
    Path file = dir.resolve("lock");
    FileChannel ch;
    try {
      ch =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new IdxkitIOException("cannot open lock file " + file, e);
    }
    FileLock l;
    try {
      l = ch.tryLock(0, Long.MAX_VALUE, shared);
    } catch (OverlappingFileLockException e) {
      close(ch);
      throw new DatabaseLockedException(dir, "this process (it is already open)");
    } catch (IOException e) {
      close(ch);
      throw new IdxkitIOException("cannot lock " + file, e);
    }
    if (l == null) {
      String holder = holder(ch);
      close(ch);
      throw new DatabaseLockedException(dir, holder);
    }
    if (!shared) {
      try {
        byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
        ch.truncate(0);
        ch.write(ByteBuffer.wrap(pid), 0);
      } catch (IOException e) {
        // The pid is only for messages; the lock itself is held.
      }
    }
    return new DirectoryLock(ch, l);
  }

  private static String holder(FileChannel ch) {
    try {
      ByteBuffer b = ByteBuffer.allocate(32);
      ch.read(b, 0);
      String pid = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).trim();
      return pid.matches("\\d+") ? "process " + pid : "another process";
    } catch (IOException e) {
      return "another process";
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // released with the channel below
    }
    close(channel);
  }

  private static void close(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      // nothing more to release
    }
  }
}
