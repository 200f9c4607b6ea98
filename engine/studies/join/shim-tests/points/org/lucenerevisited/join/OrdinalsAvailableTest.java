package org.lucenerevisited.join;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lucene 7+ runs every Lucene contender; {@code ordinals} reports its OrdinalMap's build time. */
class OrdinalsAvailableTest {

  @TempDir Path dir;

  @Test
  void ordinalsOpensAndTimesItsOrdinalMap() throws Exception {
    assertArrayEquals(new String[] {"block", "terms", "ordinals", "scan"}, Contenders.lucene());
    TestCorpus corpus = TestCorpus.build(dir, 1);
    try (JoinBench bench = new JoinBench(corpus.index.toString(), "mmap", "ordinals", corpus.queriesTsv().toString(), "")) {
      assertTrue(bench.ordinalMapMillis() >= 0);
    }
    try (JoinBench bench = new JoinBench(corpus.index.toString(), "mmap", "scan", corpus.queriesTsv().toString(), "")) {
      assertEquals(-1L, bench.ordinalMapMillis());
    }
  }
}
