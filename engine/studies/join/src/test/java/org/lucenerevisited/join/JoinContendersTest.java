package org.lucenerevisited.join;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/** Every Lucene contender of the version answers as brute force does; bad names fail clearly. */
class JoinContendersTest {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;

  private static final int TOP = 3;

  @TempDir Path dir;

  @Test
  void everyContenderFindsTheBruteForceParentsAndTopHits() throws Exception {
    checkContenders(TestCorpus.build(dir, 1));
  }

  @Test
  void withSharedJoinKeysTheKeyJoinsFollowTheKeyAndTheBlockJoinItsOwnChildren() throws Exception {
    TestCorpus corpus = TestCorpus.build(dir, 3);
    checkContenders(corpus);
    // The two semantics differ on this corpus, so the test above tells them apart.
    assertTrue(Arrays.stream(TestCorpus.QUERIES)
        .anyMatch(q -> !Arrays.equals(corpus.expected(q, true), corpus.expected(q, false))));
  }

  private void checkContenders(TestCorpus corpus) throws Exception {
    // The corpus tells right from wrong: answers with more than TOP parents, and parents with a query
    // term whose children all lie outside the range.
    assertTrue(corpus.expected(TestCorpus.QUERIES[1], true).length > TOP);
    assertTrue(corpus.expected(TestCorpus.QUERIES[0], true).length > 0);
    assertTrue(corpus.expected(TestCorpus.QUERIES[0], true).length
        < corpus.expected(new JoinQuery(TestCorpus.QUERIES[0].terms(), 0, 49), true).length);
    try (Directory d = LuceneShim.INSTANCE.openMMapDirectory(corpus.index);
        DirectoryReader reader = DirectoryReader.open(d)) {
      for (String name : Contenders.lucene()) {
        try (JoinContender contender = Contenders.open(name, reader)) {
          for (JoinQuery q : TestCorpus.QUERIES) {
            String[] expected = corpus.expected(q, !name.equals("block"));
            Answer answer = contender.answer(q, TOP);
            assertArrayEquals(expected, answer.parents(), name + " " + q);
            assertArrayEquals(topByScore(reader, q, expected), answer.top(), name + " " + q);
            assertEquals(expected.length, contender.search(q, TOP), name + " " + q);
          }
        }
      }
    }
  }

  /** The first {@code TOP} of {@code parents} in the text query's own score order (ties by docID). */
  private static String[] topByScore(DirectoryReader reader, JoinQuery q, String[] parents) throws Exception {
    IndexSearcher searcher = SHIM.newSearcher(reader);
    List<String> matching = List.of(parents);
    List<String> out = new ArrayList<>();
    for (ScoreDoc hit : SHIM.topDocs(searcher, Queries.text(JoinSchema.TEXT, q.terms()), reader.maxDoc()).scoreDocs) {
      String id = JoinSchema.id(searcher, hit.doc);
      if (matching.contains(id) && out.size() < TOP) {
        out.add(id);
      }
    }
    return out.toArray(new String[0]);
  }

  @Test
  void theGateIsTheSameForEveryContenderAndDirectory() throws Exception {
    TestCorpus corpus = TestCorpus.build(dir, 1);
    Table first = null;
    for (String name : Contenders.lucene()) {
      for (String kind : new String[] {IndexDirectories.MMAP, IndexDirectories.NIO}) {
        try (JoinBench bench = new JoinBench(corpus.index.toString(), kind, name, corpus.queriesTsv().toString(), "")) {
          Table gate = bench.gate(TOP);
          assertEquals(TestCorpus.QUERIES.length, gate.rowCount());
          assertEquals(name.equals("ordinals") ? bench.ordinalMapMillis() : -1L, bench.ordinalMapMillis());
          for (int i = 0; i < bench.queryCount(); i++) {
            bench.request(TOP).run(i);
          }
          if (first == null) {
            first = gate;
            assertEquals((long) corpus.expected(TestCorpus.QUERIES[0], true).length, gate.get("total", 0));
            assertEquals(0L, gate.get("total", 4));
            assertEquals(0L, gate.get("total", 5));
            continue;
          }
          for (String column : first.columnNames()) {
            for (int row = 0; row < gate.rowCount(); row++) {
              assertEquals(first.get(column, row), gate.get(column, row), name + " " + kind + " " + column);
            }
          }
        }
      }
    }
  }

  @Test
  void aSolrContenderInAnEngineWithoutSolrFailsClearly() throws Exception {
    assumeFalse(solrIsPresent(), "this engine was built with Solr");
    TestCorpus corpus = TestCorpus.build(dir, 1);
    IllegalArgumentException solr = assertThrows(IllegalArgumentException.class,
        () -> new JoinBench(corpus.index.toString(), "mmap", "solr-join", corpus.queriesTsv().toString(), ""));
    assertTrue(solr.getMessage().contains("'solr-join'") && solr.getMessage().contains("without Solr"), solr.getMessage());
  }

  private static boolean solrIsPresent() {
    try {
      Class.forName(Contenders.SOLR_FACTORY);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  @Test
  void unknownNamesAndBadArgumentsFailClearly() throws Exception {
    TestCorpus corpus = TestCorpus.build(dir, 1);
    String index = corpus.index.toString();
    String queries = corpus.queriesTsv().toString();
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> new JoinBench(index, "mmap", "hash", queries, ""));
    assertTrue(unknown.getMessage().contains("'hash'") && unknown.getMessage().contains(Version.LATEST.toString()),
        unknown.getMessage());
    IllegalArgumentException kind = assertThrows(IllegalArgumentException.class,
        () -> new JoinBench(index, "simple", "block", queries, ""));
    assertTrue(kind.getMessage().contains("'simple'"), kind.getMessage());
    try (JoinBench bench = new JoinBench(index, "mmap", "block", queries, "")) {
      assertThrows(IllegalArgumentException.class, () -> bench.gate(0));
    }
  }
}
