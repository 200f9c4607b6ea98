package org.lucenerevisited.join.solr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.join.Answer;
import org.lucenerevisited.join.JoinContender;
import org.lucenerevisited.join.JoinQuery;

/**
 * Every Solr contender of the release on the classpath against a brute-force reading of a tiny corpus.
 * {@code {!parent}} matches a parent when one of its own children is in the range; the query-time joins
 * when any child whose join_id is the parent's join_key is (p6 and p7 share the key k6, so they differ).
 */
class SolrContendersTest {

  /** parent_id, join_key, text (four words each, so scores order by the query term's count), acls. */
  private static final String[] BLOCKS = {
    "p1\tp1\talpha alpha alpha beta\t10,50",
    "p2\tp2\talpha alpha beta gamma\t12",
    "p3\tp3\talpha beta gamma delta\t30,40",
    "p4\tp4\tbeta gamma delta epsilon\t11",
    "p5\tp5\tgamma alpha delta beta\t99",
    "p6\tk6\talpha zeta zeta zeta\t13",
    "p7\tk6\talpha eta eta eta\t70",
  };

  private static final List<JoinQuery> QUERIES = List.of(
      new JoinQuery(new String[] {"alpha"}, 5, 15),
      new JoinQuery(new String[] {"gamma", "epsilon"}, 11, 40),
      new JoinQuery(new String[] {"alpha"}, 60, 80),
      new JoinQuery(new String[] {"omega"}, 0, 100),
      new JoinQuery(new String[] {"alpha", "beta"}, 0, 100));

  /**
   * The stock caches of the release on the classpath minus the filter and query-result caches, as the
   * config's join.solr_caches gives them: CaffeineCache from 8.3 on (the only one in 9.x), LRUCache before.
   */
  static final String STOCK = stockCaches(SolrRelease.atLeast(8, 3) ? "solr.CaffeineCache" : "solr.LRUCache");

  @TempDir static Path dir;
  private static Path index;

  private static String stockCaches(String cacheClass) {
    return "<documentCache class=\"" + cacheClass + "\" size=\"512\" initialSize=\"512\" autowarmCount=\"0\"/>"
        + "<cache name=\"perSegFilter\" class=\"" + cacheClass + "\" size=\"10\" initialSize=\"0\" autowarmCount=\"10\""
        + " regenerator=\"solr.NoOpRegenerator\"/>";
  }

  @BeforeAll
  static void indexCorpus() throws IOException {
    Path docs = dir.resolve("docs.tsv");
    Files.write(docs, List.of(BLOCKS));
    index = dir.resolve("solr");
    // A batch of 3 over 7 blocks: full batches and a remainder.
    SolrContenders.index(docs, index, 3);
  }

  private static List<String> contenders() {
    return Arrays.stream(SolrJoin.values()).filter(SolrJoin::inThisRelease).map(j -> j.contender).toList();
  }

  @Test
  void everyContenderMatchesTheBruteForce() throws IOException {
    assertTrue(contenders().containsAll(List.of("solr-parent", "solr-join")));
    for (String name : contenders()) {
      try (JoinContender contender = SolrContenders.open(name, index, "mmap", STOCK)) {
        // The core started on a solrconfig.xml with the given caches (Solr refuses a class it lacks).
        String config = Files.readString(index.resolve(SolrHome.CORE).resolve("conf").resolve("solrconfig.xml"));
        assertTrue(config.contains("<cache name=\"perSegFilter\"") && !config.contains("filterCache"), config);
        for (JoinQuery query : QUERIES) {
          String[] expected = matches(query, name.equals("solr-parent"));
          Answer answer = contender.answer(query, 10);
          assertArrayEquals(expected, answer.parents(), name + " on " + query);
          assertEquals(expected.length, contender.search(query, 2), name + " hit count on " + query);
        }
      }
    }
  }

  @Test
  void topHitsComeInScoreOrderThenIndexOrder() throws IOException {
    for (String name : contenders()) {
      try (JoinContender contender = SolrContenders.open(name, index, "mmap", STOCK)) {
        for (JoinQuery query : QUERIES.stream().filter(q -> q.terms().length == 1).toList()) {
          String[] byScore = byTermCount(query, name.equals("solr-parent"));
          assertArrayEquals(byScore, contender.answer(query, 10).top(), name + " on " + query);
          assertArrayEquals(Arrays.copyOf(byScore, Math.min(2, byScore.length)), contender.answer(query, 2).top(),
              name + " top 2 on " + query);
        }
      }
    }
  }

  @Test
  void contendersShareOneCoreAndAnswerThroughNio() throws IOException {
    List<JoinContender> open = new ArrayList<>();
    try {
      for (String name : contenders()) {
        open.add(SolrContenders.open(name, index, "nio", STOCK));
      }
      assertThrows(IllegalStateException.class, () -> SolrContenders.open("solr-join", index, "mmap", STOCK));
      for (int i = 0; i < open.size(); i++) {
        boolean block = contenders().get(i).equals("solr-parent");
        assertArrayEquals(matches(QUERIES.get(0), block), open.get(i).answer(QUERIES.get(0), 10).parents());
      }
    } finally {
      for (JoinContender contender : open) {
        contender.close();
      }
    }
  }

  @Test
  void unknownOrMissingContendersAreRefusedByName() {
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> SolrContenders.open("solr-nope", index, "mmap", STOCK));
    assertTrue(unknown.getMessage().contains("solr-nope") && unknown.getMessage().contains(SolrRelease.VERSION),
        unknown.getMessage());
    for (SolrJoin join : SolrJoin.values()) {
      if (!join.inThisRelease()) {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> SolrContenders.open(join.contender, index, "mmap", STOCK));
        assertTrue(missing.getMessage().contains(join.contender) && missing.getMessage().contains(SolrRelease.VERSION),
            missing.getMessage());
      }
    }
    assertThrows(IllegalArgumentException.class, () -> SolrContenders.open("solr-join", index, "ram", STOCK));
  }

  @Test
  void indexingRefusesToOverwriteAnIndex() {
    assertThrows(IllegalArgumentException.class, () -> SolrContenders.index(dir.resolve("docs.tsv"), index, 3));
  }

  /** The parents a query matches, ids sorted: by own children ({@code block}) or by shared join key. */
  private static String[] matches(JoinQuery query, boolean block) {
    return IntStream.range(0, BLOCKS.length).filter(i -> matches(query, i, block))
        .mapToObj(i -> col(i, 0)).sorted().toArray(String[]::new);
  }

  /** For one-term queries over four-word texts: matching parents by the term's count, then block order. */
  private static String[] byTermCount(JoinQuery query, boolean block) {
    String term = query.terms()[0];
    return IntStream.range(0, BLOCKS.length).filter(i -> matches(query, i, block)).boxed()
        .sorted(Comparator.comparingLong((Integer i) -> -Arrays.stream(col(i, 2).split(" ")).filter(term::equals).count()))
        .map(i -> col(i, 0)).toArray(String[]::new);
  }

  private static boolean matches(JoinQuery query, int parent, boolean block) {
    boolean text = Arrays.stream(col(parent, 2).split(" ")).anyMatch(w -> Arrays.asList(query.terms()).contains(w));
    boolean children = IntStream.range(0, BLOCKS.length)
        .filter(i -> block ? i == parent : col(i, 1).equals(col(parent, 1)))
        .anyMatch(i -> Arrays.stream(col(i, 3).split(",")).mapToInt(Integer::parseInt)
            .anyMatch(acl -> acl >= query.aclLo() && acl <= query.aclHi()));
    return text && children;
  }

  private static String col(int block, int column) {
    return BLOCKS[block].split("\t")[column];
  }
}
