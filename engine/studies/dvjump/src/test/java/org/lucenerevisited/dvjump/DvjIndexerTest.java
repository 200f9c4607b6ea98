package org.lucenerevisited.dvjump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * docID = row survives many flushes and merges: every study reader and the answer gate assume it, and
 * a merge policy that merges non-adjacent segments breaks it only once an index has many segments.
 */
class DvjIndexerTest {

  private static final Progress QUIET = (stage, done, total) -> {};

  @TempDir Path dir;

  @Test
  void manySegmentsMergeIntoOneInCorpusOrder() throws Exception {
    List<String[]> rows = TestArchive.write(dir.resolve("docs.tsv"), 6_000, 5);
    Table built = DvjIndexer.build(dir.resolve("docs.tsv").toString(), dir.resolve("index").toString(), "", 17,
        QUIET);
    assertEquals(1L, built.get("segments", 0));
    try (Directory d = LuceneShim.INSTANCE.openMMapDirectory(dir.resolve("index"));
        DirectoryReader reader = DirectoryReader.open(d)) {
      LeafReader leaf = reader.leaves().get(0).reader();
      Columns.SortedColumn ids = DvjAccess.open("native", leaf).columns().sorted("id");
      for (int doc = 0; doc < rows.size(); doc++) {
        assertTrue(ids.advanceExact(doc));
        assertEquals(rows.get(doc)[0], ids.lookupOrd(ids.ordValue()).utf8ToString(), "docID " + doc);
      }
    }
  }

  @Test
  void anIndexOutOfCorpusOrderIsRefusedNamingTheDoc() throws Exception {
    List<String[]> rows = TestArchive.write(dir.resolve("docs.tsv"), 500, 6);
    String index = dir.resolve("index").toString();
    DvjIndexer.build(dir.resolve("docs.tsv").toString(), index, "", QUIET);
    int[] hashes = rows.stream().mapToInt(r -> r[0].hashCode()).toArray();
    DvjIndexer.checkRowOrder(index, hashes);
    int swap = hashes[200];
    hashes[200] = hashes[201];
    hashes[201] = swap;
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> DvjIndexer.checkRowOrder(index, hashes));
    assertTrue(e.getMessage().contains("docID 200"), e.getMessage());
  }
}
