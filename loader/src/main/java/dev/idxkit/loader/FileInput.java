package dev.idxkit.loader;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;

/** A file input: identity from the file's attributes, read when asked. */
abstract class FileInput implements LoadInput {
  private final Path file;
  private final String format;
  private final String readOptions;

  FileInput(Path file, String format, String readOptions) {
    this.file = file;
    this.format = format;
    this.readOptions = readOptions;
  }

  @Override
  public String name() {
    return file.toString();
  }

  @Override
  public String identity() {
    BasicFileAttributes a = attributes();
    return format
        + " file="
        + file.toAbsolutePath().normalize()
        + " size="
        + a.size()
        + " modified="
        + Instant.ofEpochMilli(a.lastModifiedTime().toMillis())
        + " "
        + readOptions;
  }

  @Override
  public boolean positionsAreBytes() {
    return true;
  }

  @Override
  public long size() {
    return attributes().size();
  }

  private BasicFileAttributes attributes() {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new InvalidInputException(file + ": no such file");
    } catch (IOException e) {
      throw new IdxkitIOException(file + ": cannot read its attributes", e);
    }
  }

  @Override
  public String toString() {
    return name();
  }
}
