package org.lucenerevisited.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/** One segment holding every block in corpus order, children before their parent; bad corpora named. */
class JoinIndexerTest {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;

  @TempDir Path dir;

  @Test
  void blocksAreAdjacentChildrenFirstInOneSegment() throws Exception {
    TestCorpus corpus = TestCorpus.build(dir, 1);
    int docs = corpus.blocks.stream().mapToInt(b -> b.acls().length + 1).sum();
    Table built = JoinIndexer.build(dir.toString(), dir.resolve("again").toString(), Progress.NONE);
    assertEquals((long) docs, built.get("docs", 0));
    assertEquals(60L, built.get("parents", 0));
    assertEquals(1L, built.get("segments", 0));
    assertTrue((long) built.get("bytes", 0) > 0);
    try (Directory d = LuceneShim.INSTANCE.openMMapDirectory(corpus.index);
        DirectoryReader reader = DirectoryReader.open(d)) {
      assertEquals(1, reader.leaves().size());
      IndexSearcher searcher = SHIM.newSearcher(reader);
      int doc = 0;
      for (JoinCorpus.Block block : corpus.blocks) {
        for (int i = 0; i < block.acls().length; i++) {
          assertEquals(block.childId(i), JoinSchema.id(searcher, doc++));
        }
        assertEquals(block.parentId(), JoinSchema.id(searcher, doc++));
      }
      assertEquals(docs, reader.maxDoc());
    }
  }

  @Test
  void aMalformedLineIsNamedByFileAndLine() throws Exception {
    Files.writeString(dir.resolve(JoinCorpus.DOCS), "00000000\t00000000\talpha\t1,2\n00000001\t00000001\tbeta\t3,x\n",
        StandardCharsets.UTF_8);
    IOException e = assertThrows(IOException.class,
        () -> JoinIndexer.build(dir.toString(), dir.resolve("index").toString(), Progress.NONE));
    assertTrue(e.getMessage().contains("docs.tsv:2") && e.getMessage().contains("'x'"), e.getMessage());
    Files.writeString(dir.resolve(JoinCorpus.QUERIES), "alpha\t5\t3\n", StandardCharsets.UTF_8);
    IOException q = assertThrows(IOException.class, () -> JoinCorpus.queries(dir.resolve(JoinCorpus.QUERIES)));
    assertTrue(q.getMessage().contains("queries.tsv:1") && q.getMessage().contains("empty acl range"), q.getMessage());
  }
}
