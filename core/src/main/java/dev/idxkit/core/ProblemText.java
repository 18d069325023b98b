package dev.idxkit.core;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The words for what went wrong, for messages a user reads: the kind of problem and its file, never
 * a Java class name. Where a message is built around a caught exception ({@code "cannot open " +
 * file + ": " + ...}), this is what follows the colon; the exception itself stays the cause, so a
 * stack trace ({@code --verbose}) still shows its class.
 *
 * <p>Why not {@code cause.toString()}: it starts with the class name ({@code
 * java.nio.file.NoSuchFileException: /data/a.csv}), and for the many JDK exceptions whose message
 * is only a path or nothing at all, the class name is the only thing that says what happened. So
 * the exceptions whose name carries the meaning are put in words here, in the terms of {@code ls}
 * and {@code cp}; any other exception says its own message, or its family's words when it has none.
 */
public final class ProblemText {
  private ProblemText() {}

  /**
   * What {@code t} says went wrong, in words: {@code no such file or directory: /data/a.csv},
   * {@code I/O error}, {@code Is a directory}.
   */
  public static String of(Throwable t) {
    if (t == null) {
      return "unknown problem";
    }
    if (t instanceof UncheckedIOException && t.getCause() != null) {
      return of(t.getCause());
    }
    if (t instanceof FileSystemException f) {
      return fileSystem(f);
    }
    if (t instanceof ClosedByInterruptException) {
      return "interrupted (the file was closed)";
    }
    if (t instanceof AsynchronousCloseException) {
      return "the file was closed by another thread";
    }
    if (t instanceof ClosedChannelException) {
      return "the file is already closed";
    }
    String message = t.getMessage();
    Throwable cause = t.getCause();
    if (cause != null && cause != t && (message == null || message.equals(cause.toString()))) {
      // new RuntimeException(cause) takes the cause's toString() as its message: say the cause.
      return of(cause);
    }
    if (message != null && !message.isBlank()) {
      return message.strip();
    }
    if (t instanceof EOFException) {
      return "unexpected end of file";
    }
    if (t instanceof IOException) {
      return "I/O error";
    }
    if (t instanceof InterruptedException) {
      return "interrupted";
    }
    if (t instanceof OutOfMemoryError) {
      return "out of memory";
    }
    if (t instanceof StackOverflowError) {
      return "nested too deep (stack overflow)";
    }
    return "unexpected error with no message";
  }

  /** {@code AccessDeniedException: /x} as {@code permission denied: /x}; else path and reason. */
  private static String fileSystem(FileSystemException f) {
    String what;
    if (f instanceof NoSuchFileException) {
      what = "no such file or directory";
    } else if (f instanceof AccessDeniedException) {
      what = "permission denied";
    } else if (f instanceof FileAlreadyExistsException) {
      what = "already exists";
    } else if (f instanceof DirectoryNotEmptyException) {
      what = "directory not empty";
    } else if (f instanceof NotDirectoryException) {
      what = "not a directory";
    } else {
      what = f.getReason() != null ? f.getReason() : "I/O error";
    }
    // getMessage() is "file", "file -> other" or "file: reason": the reason is in `what` already.
    String where = f.getFile();
    if (where != null && f.getOtherFile() != null) {
      where += " -> " + f.getOtherFile();
    }
    if (where == null) {
      return f.getReason() != null || f.getMessage() == null ? what : what + ": " + f.getMessage();
    }
    return f.getReason() != null && what.equals(f.getReason())
        ? where + ": " + what
        : what + ": " + where;
  }

  /**
   * A Java value's type for a message about a value of the wrong type: {@code a Long}, {@code an
   * Integer}, {@code a byte[]}; {@code null} for null.
   */
  public static String javaType(Object v) {
    if (v == null) {
      return "null";
    }
    return withArticle(javaType(v.getClass()));
  }

  /** A class's short name ({@code Long}, {@code byte[]}), or words for one that has none. */
  public static String javaType(Class<?> c) {
    String name = c.getSimpleName();
    return name.isEmpty() ? "value of an anonymous class" : name;
  }

  /** {@code a VARCHAR(20)}, {@code an INT}, {@code an Integer}: the article a word takes. */
  public static String withArticle(String word) {
    boolean vowel = !word.isEmpty() && "aeiou".indexOf(Character.toLowerCase(word.charAt(0))) >= 0;
    return (vowel ? "an " : "a ") + word;
  }
}
