package dev.idxkit.idxbuild.temp;

import dev.idxkit.core.IdxkitIOException;
import dev.idxkit.core.spi.FileIo;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The one tracker of every temp file of a rebuild (Lucene's {@code TrackingDirectoryWrapper} idea):
 * files are created here, their bytes are accounted here against the {@code .srt} limits, and
 * {@link #close()} deletes every file this space ever created that still exists, whether the
 * rebuild succeeded or failed. A failed rebuild leaves no litter in the sort directories.
 *
 * <p>Call order: {@code new TempSpace(srt, prefix)}; per run, {@link #newSegment(int group)}, then
 * {@link #reserve} before each write (continuing in the segment it returns); {@link #release} when
 * a run is consumed; {@link #close()} at the end, always.
 *
 * <p>Placement, as in OpenEdge: the directories keep their {@code .srt} order and sort groups are
 * spread over them round-robin: group {@code g} starts in directory {@code g % n}, so groups land
 * on different devices. When a reservation would take a directory past its limit, the group rolls
 * over to the next directory (in {@code .srt} order, wrapping) that has room, and the writer
 * continues in a new segment there; the group stays there for its later runs. When no directory has
 * room, {@link TempSpaceExhaustedException} names every directory with its limit and usage. Limits
 * count the bytes currently held (a released segment gives its bytes back). A directory with limit
 * 0 is only bounded by its disk: a full disk shows up as an I/O error from the writer.
 *
 * <p>Files are named {@code <prefix>-g<group>-<n>.srt.tmp} so a human who finds one knows what it
 * is; an existing file of that name (left by a crashed rebuild with the same prefix) is never
 * touched: the next {@code n} is used. A process killed with SIGKILL cannot delete its files, so
 * {@link #deleteLeftovers()} exists for an owner that can prove no one else uses its prefix (the
 * rebuilder: its prefix names the database, and it holds the database's exclusive lock).
 *
 * <p>Channels of the segments are opened through the {@link FileIo} given at construction (the
 * database's), so tests can make sort files fail the way a full or failing disk does.
 *
 * <p>Thread-safe: several groups spill concurrently. Every method takes one lock, held for the
 * bookkeeping and the create/delete call only; writes happen outside it.
 *
 * <p>Memory: a few objects per directory and per segment; the paths of every file created.
 */
public final class TempSpace implements AutoCloseable {
  private enum State {
    OPEN,
    CLOSED
  }

  /**
   * One sort directory as seen by the report: its {@code .srt} line, limit (0 = none), and bytes
   * written in total, held now, and held at most at any time.
   */
  public record Directory(
      Path path, long limitKb, int line, long writtenBytes, long currentBytes, long peakBytes) {}

  private static final class Dir {
    final SrtFile.Entry entry;
    long written;
    long current;
    long peak;

    Dir(SrtFile.Entry entry) {
      this.entry = entry;
    }

    boolean hasRoom(long bytes) {
      return entry.limitKb() == 0 || current + bytes <= entry.limitBytes();
    }

    Directory snapshot() {
      return new Directory(entry.dir(), entry.limitKb(), entry.line(), written, current, peak);
    }
  }

  private final SrtFile srt;
  private final String prefix;
  private final FileIo io;
  private final List<Dir> dirs = new ArrayList<>();
  private final Map<Integer, Integer> groupDir = new HashMap<>();
  private final Map<Integer, Integer> groupSeq = new HashMap<>();
  private final Set<Segment> live = new LinkedHashSet<>();
  private final List<Path> created = new ArrayList<>();
  private long current;
  private long peak;
  private State state = State.OPEN;

  /**
   * @param srt the sort directories, already {@linkplain SrtFile#validate() validated}
   * @param prefix the start of every file name, e.g. {@code "idxbuild-tpch"}: no path separators
   */
  public TempSpace(SrtFile srt, String prefix) {
    this(srt, prefix, FileIo.DEFAULT);
  }

  /**
   * As {@link #TempSpace(SrtFile, String)}, with the channels of its files opened by {@code io}.
   */
  public TempSpace(SrtFile srt, String prefix, FileIo io) {
    if (prefix == null
        || prefix.isEmpty()
        || prefix.indexOf('/') >= 0
        || prefix.indexOf('\\') >= 0
        || prefix.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "prefix : '" + prefix + "' (expected: a non-empty file name prefix without separators)");
    }
    this.srt = srt;
    this.prefix = prefix;
    this.io = java.util.Objects.requireNonNull(io, "io");
    for (SrtFile.Entry e : srt.entries()) {
      dirs.add(new Dir(e));
    }
  }

  /** Creates an empty file for {@code group} in the group's current directory. */
  public synchronized Segment newSegment(int group) {
    ensureOpen();
    if (group < 0) {
      throw new IllegalArgumentException("group : " + group + " (expected: >= 0)");
    }
    int d = groupDir.computeIfAbsent(group, g -> g % dirs.size());
    return create(group, d);
  }

  /**
   * Accounts {@code bytes} about to be written at the end of {@code segment} and returns the
   * segment to write them to: {@code segment} itself while its directory has room, else a new
   * segment in the next directory with room (the group moves there). The caller writes at {@code
   * returned.size() - bytes}. An empty segment left behind by a rollover stays the caller's to
   * release.
   *
   * @throws TempSpaceExhaustedException when no directory has room for {@code bytes}
   */
  public synchronized Segment reserve(Segment segment, long bytes) {
    ensureOpen();
    checkOwned(segment);
    if (segment.isReleased()) {
      throw new IllegalStateException("segment " + segment.path() + " was released");
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes : " + bytes + " (expected: >= 0)");
    }
    int from = segment.directoryIndex();
    if (dirs.get(from).hasRoom(bytes)) {
      account(segment, bytes);
      return segment;
    }
    for (int i = 1; i < dirs.size(); i++) {
      int d = (from + i) % dirs.size();
      if (dirs.get(d).hasRoom(bytes)) {
        groupDir.put(segment.group(), d);
        Segment next = create(segment.group(), d);
        account(next, bytes);
        return next;
      }
    }
    throw exhausted(segment.group(), bytes);
  }

  /** Deletes the segment's file and gives its bytes back to its directory. Idempotent. */
  public synchronized void release(Segment segment) {
    checkOwned(segment);
    if (segment.isReleased()) {
      return;
    }
    segment.markReleased();
    live.remove(segment);
    Dir d = dirs.get(segment.directoryIndex());
    d.current -= segment.size();
    current -= segment.size();
    if (state == State.OPEN) {
      try {
        Files.deleteIfExists(segment.path());
      } catch (IOException e) {
        throw new IdxkitIOException("cannot delete sort file " + segment.path(), e);
      }
    }
  }

  /** Total bytes written per directory, in {@code .srt} order (a repeated directory is summed). */
  public Map<Path, Long> bytesPerDirectory() {
    return perDirectory(Directory::writtenBytes);
  }

  /** The most bytes each directory held at once. For a repeated directory: the sum of its lines. */
  public Map<Path, Long> peakBytesPerDirectory() {
    return perDirectory(Directory::peakBytes);
  }

  /** Bytes each directory holds now. */
  public Map<Path, Long> currentBytesPerDirectory() {
    return perDirectory(Directory::currentBytes);
  }

  /** Every directory line with its usage, in {@code .srt} order. */
  public synchronized List<Directory> directories() {
    List<Directory> out = new ArrayList<>(dirs.size());
    for (Dir d : dirs) {
      out.add(d.snapshot());
    }
    return out;
  }

  /** The most bytes held at once over all directories. */
  public synchronized long peakBytes() {
    return peak;
  }

  /** Bytes held now over all directories. */
  public synchronized long currentBytes() {
    return current;
  }

  /** Segments not yet released, in creation order. */
  public synchronized List<Segment> liveSegments() {
    return new ArrayList<>(live);
  }

  /**
   * How many more bytes the rebuild may write: over all directories, the room left under each
   * limit, bounded by the usable space of the file store it is on. Directories on one file store
   * share its usable space (two lines on one disk do not double it).
   */
  public synchronized long capacity() {
    // FileStore equality is by device, so two directories on one disk share one entry.
    Map<FileStore, Long> usableLeft = new HashMap<>();
    long total = 0;
    for (Dir d : dirs) {
      FileStore store;
      long usable;
      try {
        store = Files.getFileStore(d.entry.dir());
        usable = store.getUsableSpace();
      } catch (IOException e) {
        throw new IdxkitIOException("cannot read free space of sort directory " + d.entry.dir(), e);
      }
      long left = usableLeft.computeIfAbsent(store, s -> usable);
      long room =
          d.entry.limitKb() == 0
              ? left
              : Math.min(left, Math.max(0, d.entry.limitBytes() - d.current));
      usableLeft.put(store, left - room);
      total += room;
    }
    return total;
  }

  public SrtFile srt() {
    return srt;
  }

  /** Opens the channels of this space's files (run writers and readers use it). */
  public FileIo io() {
    return io;
  }

  /**
   * Deletes every file in the sort directories named like this space's own ({@code
   * <prefix>-g<group>-<n>.srt.tmp}) that this space did not create: the files of an earlier owner
   * of the prefix that was killed before it could delete them. Call it only when no one else can be
   * using the prefix. Also deletes the directory probes of {@link SrtFile} left by processes that
   * no longer run (the probe's name holds its pid). Returns the files deleted.
   */
  public synchronized List<Path> deleteLeftovers() {
    ensureOpen();
    java.util.regex.Pattern own =
        java.util.regex.Pattern.compile(
            java.util.regex.Pattern.quote(prefix) + "-g[0-9]+-[0-9]+\\.srt\\.tmp");
    Set<Path> seen = new LinkedHashSet<>();
    List<Path> deleted = new ArrayList<>();
    for (Dir d : dirs) {
      if (!seen.add(d.entry.dir())) {
        continue;
      }
      try (var files = Files.newDirectoryStream(d.entry.dir())) {
        for (Path f : files) {
          String name = f.getFileName().toString();
          if ((own.matcher(name).matches() && !created.contains(f)) || deadProbe(name)) {
            Files.deleteIfExists(f);
            deleted.add(f);
          }
        }
      } catch (IOException e) {
        throw new IdxkitIOException(
            "cannot delete sort files left in sort directory " + d.entry.dir(), e);
      }
    }
    return deleted;
  }

  /** A directory probe ({@code .idxkit-probe-<pid>-<random>.tmp}) whose process is gone. */
  static boolean deadProbe(String name) {
    java.util.regex.Matcher m = PROBE.matcher(name);
    if (!m.matches()) {
      return false;
    }
    try {
      return ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty();
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static final java.util.regex.Pattern PROBE =
      java.util.regex.Pattern.compile(
          java.util.regex.Pattern.quote(SrtFile.PROBE_PREFIX) + "([0-9]+)-[0-9]+\\.tmp");

  /**
   * Deletes every file this space created that still exists. Idempotent; afterwards no segment can
   * be created or reserved. Every file is attempted; the first failure is thrown with the others
   * suppressed.
   */
  @Override
  public synchronized void close() {
    if (state == State.CLOSED) {
      return;
    }
    state = State.CLOSED;
    IdxkitIOException failure = null;
    for (Path p : created) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        IdxkitIOException x = new IdxkitIOException("cannot delete sort file " + p, e);
        if (failure == null) {
          failure = x;
        } else {
          failure.addSuppressed(x);
        }
      }
    }
    for (Segment s : live) {
      s.markReleased();
    }
    live.clear();
    for (Dir d : dirs) {
      d.current = 0;
    }
    current = 0;
    if (failure != null) {
      throw failure;
    }
  }

  private Segment create(int group, int d) {
    Path dir = dirs.get(d).entry.dir();
    int seq = groupSeq.getOrDefault(group, 0);
    while (true) {
      Path p = dir.resolve(prefix + "-g" + group + "-" + seq + ".srt.tmp");
      seq++;
      try {
        Files.createFile(p);
      } catch (FileAlreadyExistsException e) {
        continue; // not ours: never overwrite or later delete it
      } catch (IOException e) {
        groupSeq.put(group, seq);
        throw new IdxkitIOException(
            "cannot create sort file "
                + p
                + " in sort directory "
                + dir
                + " ("
                + srt.where(dirs.get(d).entry)
                + ")",
            e);
      }
      groupSeq.put(group, seq);
      created.add(p);
      Segment s = new Segment(this, p, group, d);
      live.add(s);
      return s;
    }
  }

  private void account(Segment s, long bytes) {
    Dir d = dirs.get(s.directoryIndex());
    d.current += bytes;
    d.written += bytes;
    d.peak = Math.max(d.peak, d.current);
    current += bytes;
    peak = Math.max(peak, current);
    s.grow(bytes);
  }

  private TempSpaceExhaustedException exhausted(int group, long bytes) {
    StringBuilder sb = new StringBuilder();
    sb.append("sort space exhausted: no sort directory has room for ")
        .append(bytes)
        .append(" more bytes of sort group ")
        .append(group)
        .append(':');
    List<Directory> snapshot = new ArrayList<>();
    for (Dir d : dirs) {
      Directory s = d.snapshot();
      snapshot.add(s);
      sb.append("\n  ")
          .append(srt.where(d.entry))
          .append(": ")
          .append(s.path())
          .append(" limit ")
          .append(s.limitKb() == 0 ? "none" : s.limitKb() + " KB")
          .append(", used ")
          .append(s.currentBytes())
          .append(" bytes");
    }
    sb.append("\n(raise the limits or add directories")
        .append(srt.file() != null ? " in " + srt.file() : " with --srt")
        .append(')');
    return new TempSpaceExhaustedException(sb.toString(), snapshot);
  }

  private Map<Path, Long> perDirectory(ToLongFunction<Directory> f) {
    Map<Path, Long> out = new LinkedHashMap<>();
    for (Directory d : directories()) {
      out.merge(d.path(), f.applyAsLong(d), Long::sum);
    }
    return out;
  }

  private void ensureOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException("temp space " + prefix + " is closed");
    }
  }

  private void checkOwned(Segment s) {
    if (s.owner() != this) {
      throw new IllegalArgumentException("segment " + s.path() + " belongs to another temp space");
    }
  }
}
