package org.lucenerevisited.join;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lucene 4 has no global-ordinals join: {@code ordinals} is refused, naming itself and the version. */
class OrdinalsRefusedTest {

  @TempDir Path dir;

  @Test
  void ordinalsIsRefusedByName() throws Exception {
    assertArrayEquals(new String[] {"block", "terms", "scan"}, Contenders.lucene());
    TestCorpus corpus = TestCorpus.build(dir, 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new JoinBench(corpus.index.toString(), "mmap", "ordinals", corpus.queriesTsv().toString(), ""));
    assertTrue(e.getMessage().contains("'ordinals'") && e.getMessage().contains("4.10.4"), e.getMessage());
  }
}
