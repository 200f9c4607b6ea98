package org.lucenerevisited.join;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import org.lucenerevisited.engine.harness.Progress;

/**
 * A small corpus in the study's format, its queries and index, for tests: 60 parents with 1 to 4
 * children, acl values 0 to 49, "alpha" in every 2nd parent's text (up to 3 times), "beta" in every 5th,
 * "gamma" in 3, "absent" in none; with {@code share} > 1, that many consecutive parents share a
 * join_key. The expected answers are computed here, by brute force over the blocks.
 */
final class TestCorpus {

  static final JoinQuery[] QUERIES = {
    new JoinQuery(new String[] {"alpha", "beta"}, 10, 16),
    new JoinQuery(new String[] {"gamma", "alpha"}, 0, 49),
    new JoinQuery(new String[] {"beta"}, 45, 49),
    new JoinQuery(new String[] {"alpha", "filler3"}, 20, 22),
    new JoinQuery(new String[] {"absent"}, 0, 49),
    new JoinQuery(new String[] {"alpha"}, 60, 70),
  };

  final Path dir;
  final Path index;
  final List<JoinCorpus.Block> blocks;

  private TestCorpus(Path dir, Path index, List<JoinCorpus.Block> blocks) {
    this.dir = dir;
    this.index = index;
    this.blocks = blocks;
  }

  /** Writes docs.tsv and queries.tsv into {@code dir} and indexes them into {@code dir/index}. */
  static TestCorpus build(Path dir, int share) throws IOException {
    Random random = new Random(7);
    List<JoinCorpus.Block> blocks = new ArrayList<>();
    StringBuilder docs = new StringBuilder();
    for (int i = 0; i < 60; i++) {
      StringJoiner text = new StringJoiner(" ");
      text.add("filler" + random.nextInt(6));
      for (int k = 0; i % 2 == 0 && k <= random.nextInt(3); k++) {
        text.add("alpha");
      }
      if (i % 5 == 0) {
        text.add("beta");
      }
      if (i == 3 || i == 17 || i == 42) {
        text.add("gamma");
      }
      text.add("filler" + random.nextInt(6));
      int[] acls = new int[1 + random.nextInt(4)];
      for (int c = 0; c < acls.length; c++) {
        acls[c] = random.nextInt(50);
      }
      JoinCorpus.Block block = new JoinCorpus.Block(id(i), id(i - i % share), text.toString(), acls);
      blocks.add(block);
      StringJoiner acl = new StringJoiner(",");
      Arrays.stream(acls).forEach(a -> acl.add(Integer.toString(a)));
      docs.append(block.parentId()).append('\t').append(block.joinKey()).append('\t').append(block.text())
          .append('\t').append(acl).append('\n');
    }
    Files.writeString(dir.resolve(JoinCorpus.DOCS), docs, StandardCharsets.UTF_8);
    StringBuilder queries = new StringBuilder();
    for (JoinQuery q : QUERIES) {
      queries.append(String.join(" ", q.terms())).append('\t').append(q.aclLo()).append('\t').append(q.aclHi()).append('\n');
    }
    Files.writeString(dir.resolve(JoinCorpus.QUERIES), queries, StandardCharsets.UTF_8);
    Path index = dir.resolve("index");
    JoinIndexer.build(dir.toString(), index.toString(), Progress.NONE);
    return new TestCorpus(dir, index, blocks);
  }

  static String id(int i) {
    return String.format("%08d", i);
  }

  Path queriesTsv() {
    return dir.resolve(JoinCorpus.QUERIES);
  }

  /**
   * The parent ids, sorted, whose text has a query term and that join a child in the acl range: their
   * own children ({@code byKey} false, the block join) or any child whose join_id is their join_key.
   */
  String[] expected(JoinQuery q, boolean byKey) {
    Set<String> joined = new HashSet<>();
    for (JoinCorpus.Block b : blocks) {
      if (Arrays.stream(b.acls()).anyMatch(a -> a >= q.aclLo() && a <= q.aclHi())) {
        joined.add(byKey ? b.joinKey() : b.parentId());
      }
    }
    return blocks.stream()
        .filter(b -> joined.contains(byKey ? b.joinKey() : b.parentId()))
        .filter(b -> Arrays.stream(q.terms()).anyMatch(t -> List.of(b.text().split(" ")).contains(t)))
        .map(JoinCorpus.Block::parentId)
        .sorted()
        .toArray(String[]::new);
  }
}
