package dev.idxkit.idxbuild.temp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The OpenEdge {@code .srt} file: the list of directories the rebuilder may put its sort files in,
 * each with a size limit. One directory per line:
 *
 * <pre>
 * # size-limit-in-KB   directory          (0 = no limit)
 * 2000000              /fast/sort1/
 * 0                    /big disk/sort 2
 * </pre>
 *
 * <p>Rules, chosen to accept what OpenEdge accepts and to reject everything else with the file and
 * line:
 *
 * <ul>
 *   <li>The first word is the limit in KB: decimal digits only, 0 meaning no limit. The rest of the
 *       line, trimmed, is the directory, so a directory may contain spaces.
 *   <li>{@code #} at the start of a line or after a blank starts a comment to the end of the line;
 *       a {@code #} inside a word ({@code /sort#2}) is part of it. Blank lines are ignored.
 *   <li>A trailing {@code /} (which OpenEdge requires) is accepted and dropped. A relative
 *       directory is relative to the working directory of the process, as in OpenEdge; {@code ~} is
 *       not expanded.
 *   <li>The same directory may appear on several lines; each line is then its own slot with its own
 *       limit (OpenEdge uses this to weight a fast device).
 *   <li>The file is UTF-8; a file without any directory is an error.
 * </ul>
 *
 * <p>Parsing checks the form only; {@link #validate()} then checks, before any work starts, that
 * every directory exists and can be written.
 */
public final class SrtFile {
  /** Start of the name of the file that checks a directory is writable. */
  public static final String PROBE_PREFIX = ".idxkit-probe-";

  /** The largest limit whose byte count still fits in a long. */
  public static final long MAX_LIMIT_KB = Long.MAX_VALUE / 1024;

  /** One line: the size limit in KB (0 = no limit), the directory, and the 1-based line number. */
  public record Entry(long limitKb, Path dir, int line) {
    /** The limit in bytes, or {@link Long#MAX_VALUE} for no limit. */
    public long limitBytes() {
      return limitKb == 0 ? Long.MAX_VALUE : limitKb * 1024;
    }
  }

  private final Path file; // null when the directories did not come from a file
  private final String origin; // how to name the source in messages when file is null
  private final List<Entry> entries;

  private SrtFile(Path file, String origin, List<Entry> entries) {
    this.file = file;
    this.origin = origin;
    this.entries = List.copyOf(entries);
  }

  /** Reads and parses {@code file}; throws {@link SrtFileException} naming the first bad line. */
  public static SrtFile parse(Path file) {
    return parse(file, file);
  }

  /**
   * Reads {@code file}, naming it {@code shownAs} in every message (the path as the user gave it,
   * not the absolute one it was resolved to).
   */
  public static SrtFile parse(Path file, Path shownAs) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new SrtFileException(shownAs + ": file does not exist");
    } catch (AccessDeniedException e) {
      throw new SrtFileException(shownAs + ": file cannot be read (permission denied)");
    } catch (IOException e) {
      throw new SrtFileException(shownAs + ": file cannot be read (" + e.getMessage() + ")");
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw new SrtFileException(shownAs + ": not UTF-8 text");
    }
    return parse(shownAs, text);
  }

  /** Parses {@code text} as if read from {@code file} (which is only used in messages). */
  static SrtFile parse(Path file, String text) {
    List<Entry> entries = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      int lineNo = i + 1;
      String line = stripComment(lines[i], i == 0).strip();
      if (line.isEmpty()) {
        continue;
      }
      entries.add(parseLine(file + ":" + lineNo + ": ", line, lineNo));
    }
    if (entries.isEmpty()) {
      throw new SrtFileException(
          file + ": no sort directories (expected: lines of '<size-limit-in-KB> <directory>')");
    }
    return new SrtFile(file, null, entries);
  }

  /** One unlimited directory, as for {@code -T DIR} or the current directory. */
  public static SrtFile ofDirectory(Path dir) {
    return ofDirectory(dir, "sort directory");
  }

  /** One unlimited directory; {@code origin} names it in messages ({@code "-T directory"}). */
  static SrtFile ofDirectory(Path dir, String origin) {
    return new SrtFile(null, origin, List.of(new Entry(0, dir, 0)));
  }

  public List<Entry> entries() {
    return entries;
  }

  /** The file the directories came from, or null for {@link #ofDirectory}. */
  public Path file() {
    return file;
  }

  /** Where {@code e} came from, for messages: {@code "idx.srt:3"} or {@code "-T directory"}. */
  public String where(Entry e) {
    return file != null ? file + ":" + e.line() : origin;
  }

  /**
   * Checks every directory before any work: it exists, is a directory, and a file can be created
   * and deleted in it. All problems are collected into one {@link SrtFileException}.
   */
  public void validate() {
    List<String> problems = new ArrayList<>();
    for (Entry e : entries) {
      String problem = check(e.dir());
      if (problem != null) {
        problems.add(where(e) + ": " + problem);
      }
    }
    if (!problems.isEmpty()) {
      throw new SrtFileException(problems);
    }
  }

  private static String check(Path dir) {
    if (!Files.exists(dir)) {
      return "directory " + dir + " does not exist (create it: mkdir -p " + dir + ")";
    }
    if (!Files.isDirectory(dir)) {
      return dir + " is not a directory (name a directory on this line)";
    }
    // Files.isWritable only reads the mode bits; a probe file also catches read-only mounts, ACLs
    // and full quotas, which is what a rebuild at 3 a.m. would otherwise find out an hour in.
    Path probe;
    try {
      // The pid in the name lets a later rebuild delete the probe of a process killed right here.
      probe = Files.createTempFile(dir, PROBE_PREFIX + ProcessHandle.current().pid() + "-", ".tmp");
    } catch (AccessDeniedException e) {
      return "directory "
          + dir
          + " is not writable (permission denied; fix: chmod u+w "
          + dir
          + ")";
    } catch (IOException e) {
      return "directory " + dir + " is not writable (" + e.getMessage() + ")";
    }
    try {
      Files.delete(probe);
    } catch (IOException e) {
      return "directory "
          + dir
          + " allows creating but not deleting files ("
          + e.getMessage()
          + ")";
    }
    return null;
  }

  private static String stripComment(String line, boolean first) {
    String s = line;
    if (first && !s.isEmpty() && s.charAt(0) == '\uFEFF') {
      s = s.substring(1);
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) == '#' && (i == 0 || Character.isWhitespace(s.charAt(i - 1)))) {
        return s.substring(0, i);
      }
    }
    return s;
  }

  private static Entry parseLine(String at, String line, int lineNo) {
    int sp = 0;
    while (sp < line.length() && !Character.isWhitespace(line.charAt(sp))) {
      sp++;
    }
    String limitText = line.substring(0, sp);
    String dirText = line.substring(sp).strip();
    long limitKb = parseLimit(at, limitText, dirText);
    if (dirText.isEmpty()) {
      throw new SrtFileException(
          at
              + "missing directory after size limit "
              + limitText
              + " (expected: <size-limit-in-KB> <directory>)");
    }
    while (dirText.length() > 1 && (dirText.endsWith("/") || dirText.endsWith("\\"))) {
      dirText = dirText.substring(0, dirText.length() - 1);
    }
    Path dir;
    try {
      dir = Path.of(dirText);
    } catch (InvalidPathException e) {
      throw new SrtFileException(
          at + "directory '" + dirText + "' is not a valid path (" + e.getReason() + ")");
    }
    return new Entry(limitKb, dir, lineNo);
  }

  private static long parseLimit(String at, String text, String rest) {
    boolean digits = !text.isEmpty();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        digits = false;
        break;
      }
    }
    if (digits) {
      try {
        long v = Long.parseLong(text);
        if (v <= MAX_LIMIT_KB) {
          return v;
        }
      } catch (NumberFormatException e) {
        // too many digits for a long: reported as too large below
      }
      throw new SrtFileException(
          at
              + "size limit '"
              + text
              + "' is too large (expected: at most "
              + MAX_LIMIT_KB
              + " KB)");
    }
    if (text.length() > 1
        && text.charAt(0) == '-'
        && text.substring(1).chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new SrtFileException(
          at + "size limit '" + text + "' is negative (expected: KB, 0 for no limit)");
    }
    if (rest.isEmpty() && looksLikePath(text)) {
      throw new SrtFileException(
          at
              + "missing size limit before directory "
              + text
              + " (expected: <size-limit-in-KB> <directory>)");
    }
    throw new SrtFileException(
        at + "size limit '" + text + "' is not a number (expected: KB, 0 for no limit)");
  }

  private static boolean looksLikePath(String s) {
    return s.indexOf('/') >= 0 || s.indexOf('\\') >= 0 || s.startsWith(".") || s.startsWith("~");
  }

  @Override
  public String toString() {
    return file != null ? file.toString() : origin + " " + entries.get(0).dir();
  }
}
