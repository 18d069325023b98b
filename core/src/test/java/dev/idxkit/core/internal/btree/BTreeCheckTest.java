package dev.idxkit.core.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idxkit.core.CorruptPageException;
import dev.idxkit.core.Rid;
import dev.idxkit.core.TreeStats;
import dev.idxkit.core.spi.Page;
import dev.idxkit.core.spi.TreeBuilder;
import dev.idxkit.core.testing.MemoryPageAccess;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link BTree#check} finds deliberate damage and names the page: entries swapped within a leaf and
 * across leaves, broken sibling links, a wrong level, a page reached twice, and a page that fails
 * its checksum, and in format 2 a head that does not match its key or a prefix too long for the
 * page. Damage other than the checksum one is resealed, as a software bug would write it. Every
 * case runs on a tree of each node format.
 */
class BTreeCheckTest {
  private static final int PAGE = 4096;
  private static final int N = 60_000;

  private MemoryPageAccess memory;
  private ChecksumPageAccess pages;
  private BTree tree;
  private final List<String> problems = new ArrayList<>();

  private void build(int format) {
    memory = new MemoryPageAccess(PAGE);
    MemoryPageSink sink = new MemoryPageSink(memory); // seals every page it takes
    TreeBuilder b = new TreeBuilder(sink, PAGE, memory.areaId(), 100, "damaged", format);
    byte[] e = new byte[16];
    for (int i = 0; i < N; i++) {
      Rid.write(i * 5L, e, 0);
      Rid.write(i, e, 8);
      b.add(e);
    }
    pages = new ChecksumPageAccess(memory);
    tree = new BTree(pages, b.finish().root(), "damaged");
    assertThat(tree.height()).isEqualTo(3);
  }

  @AfterEach
  void printProblems() {
    problems.forEach(System.out::println); // the messages, for reading in the surefire output
  }

  private TreeStats check() {
    return tree.check(problems::add);
  }

  /** The {@code k}-th leaf from the left. */
  private long leaf(int k) {
    Page p = tree.edgeLeaf(false);
    for (int i = 0; i < k; i++) {
      p = pages.read(Node.rightSibling(p));
    }
    return p.pageNo();
  }

  private Page damage(long pageNo) {
    return memory.write(pageNo);
  }

  private void reseal(long pageNo) {
    memory.write(pageNo).seal(0);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void intactTreeHasNoProblemsAndMeasures(int format) {
    build(format);
    TreeStats s = check();
    assertThat(problems).isEmpty();
    assertThat(s.entries()).isEqualTo(N);
    assertThat(s.height()).isEqualTo(3);
    assertThat(s.pagesPerLevel().get(2)).isEqualTo(1);
    assertThat(s.averageEntrySize()).isEqualTo(16.0);
    assertThat(s.leafFillPercent()).isGreaterThan(99);
    assertThat(s.distinctPrefixRatio()).isEqualTo(1.0); // the 8-byte keys are all different
    assertThat(s.problems()).isZero();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void entriesSwappedWithinALeaf(int format) {
    build(format);
    long no = leaf(3);
    Page p = damage(no);
    // Whole slots (with their heads), so only the order is wrong.
    int size = Node.slotSize(format);
    byte[] s0 = p.getBytes(Node.slotPos(p, 0), size);
    p.putBytes(Node.slotPos(p, 0), p.getBytes(Node.slotPos(p, 1), size), 0, size);
    p.putBytes(Node.slotPos(p, 1), s0, 0, size);
    reseal(no);
    assertThat(check().problems()).isPositive();
    assertThat(problems)
        .anySatisfy(m -> assertThat(m).startsWith("page " + no + " ").contains("out of order"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void entriesSwappedAcrossLeaves(int format) {
    build(format);
    long a = leaf(1);
    long b = leaf(40);
    Page pa = damage(a);
    Page pb = damage(b);
    // Each leaf written again with its first entry swapped for the other's: what a bug in a
    // rebuild of the pages would leave.
    byte[] ea = Keys.keyBytes(pa, 0);
    byte[] eb = Keys.keyBytes(pb, 0);
    rewriteWithFirst(pa, eb, format);
    rewriteWithFirst(pb, ea, format);
    reseal(a);
    reseal(b);
    check();
    assertThat(problems)
        .anySatisfy(m -> assertThat(m).startsWith("page " + a + " ").contains("upper bound"));
    assertThat(problems)
        .anySatisfy(m -> assertThat(m).startsWith("page " + b + " ").contains("lower bound"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void brokenSiblingLinks(int format) {
    build(format);
    long a = leaf(5);
    long c = leaf(7);
    Node.setRightSibling(damage(a), c);
    reseal(a);
    long d = leaf(9);
    Node.setLeftSibling(damage(d), 0);
    reseal(d);
    check();
    assertThat(problems)
        .anySatisfy(
            m -> assertThat(m).startsWith("page " + a + " ").contains("right sibling " + c));
    assertThat(problems)
        .anySatisfy(m -> assertThat(m).startsWith("page " + d + " ").contains("left sibling 0"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void wrongLevelAndPageReachedTwice(int format) {
    build(format);
    long a = leaf(2);
    damage(a).putU8(Node.OFF_LEVEL, 1);
    reseal(a);
    long root = tree.root();
    Page r = damage(root);
    long child0 = Node.child(r, 0);
    r.putLong(Node.slot(r, 0) & 0xFFFF, child0); // child 1 := child 0
    reseal(root);
    check();
    assertThat(problems)
        .anySatisfy(m -> assertThat(m).startsWith("page " + a + " ").contains("level 1"));
    assertThat(problems)
        .anySatisfy(
            m -> assertThat(m).startsWith("page " + child0 + " ").contains("reached twice"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void checksumFailureIsReportedAndTheRestStillChecked(int format) {
    build(format);
    long a = leaf(10);
    Page p = damage(a);
    int off = Node.suffixOffset(p, 4) + 3;
    p.putU8(off, p.getU8(off) ^ 0x10);
    TreeStats s = check();
    assertThat(problems).hasSize(1); // and no consequences: the chain is not judged across it
    assertThat(problems.get(0)).startsWith("page " + a + " ").contains("checksum mismatch");
    assertThat(s.entries()).isLessThan(N).isGreaterThan(N - 300);

    // Ordinary operations never read past it silently.
    byte[] e = new byte[16];
    Rid.write(Rid.read(Keys.keyBytes(p, 0), 0), e, 0);
    assertThatThrownBy(() -> tree.contains(e))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageContaining("page " + a);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void unreadableRootIsReportedWithoutOpeningTheTree(int format) {
    build(format);
    long root = tree.root();
    damage(root).putU8(Node.HEADER_SIZE + 1, 0x77);
    assertThatThrownBy(() -> new BTree(pages, root, "damaged"))
        .isInstanceOf(CorruptPageException.class);
    TreeStats s = BTree.check(pages, root, problems::add);
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0)).startsWith("page " + root + " (root)").contains("checksum");
    assertThat(s.entries()).isZero();
    assertThat(s.problems()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void unreadableBranchIsReported(int format) {
    build(format);
    long root = tree.root();
    long branch = Node.child(pages.read(root), 1);
    damage(branch).putU8(PAGE - 1, 0x5a);
    check();
    assertThat(problems).hasSize(1);
    assertThat(problems.get(0))
        .startsWith("page " + branch + " (child 1 of page " + root + ")")
        .contains("checksum");
  }

  /** Writes leaf {@code p} again with its entries, the first replaced by {@code first}. */
  private static void rewriteWithFirst(Page p, byte[] first, int format) {
    Cells c = new Cells(PAGE);
    c.add(first, 0, first.length, 0);
    for (int i = 1; i < Node.count(p); i++) {
      c.addFrom(p, i);
    }
    c.writeTo(p, format, 0, c.size());
  }

  @Test
  void wrongHeadIsFoundInFormat2() {
    build(Node.FORMAT_2);
    long no = leaf(6);
    Page p = damage(no);
    int pos = Node.slotPos(p, 7) + 4;
    p.putInt(pos, p.getInt(pos) + 1);
    reseal(no);
    check();
    assertThat(problems)
        .anySatisfy(m -> assertThat(m).startsWith("page " + no + " ").contains("slot 7 head"));
  }

  @Test
  void prefixTooLongIsFoundInFormat2() {
    build(Node.FORMAT_2);
    long no = leaf(8);
    damage(no).putU16(Node.OFF_PREFIX, PAGE);
    reseal(no);
    check();
    assertThat(problems)
        .anySatisfy(m -> assertThat(m).startsWith("page " + no + " ").contains("prefix of 4096"));
  }
}
