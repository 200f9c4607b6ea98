package org.lucenerevisited.dvupdate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/** The index holds the corpus in row order, over several segments, with the indexed DocValues. */
class DvuIndexerTest {

  /** The field attribute in which PerFieldPostingsFormat records a field's format. */
  private static final String FORMAT = "PerFieldPostingsFormat.format";

  @TempDir Path dir;

  @Test
  void rowsAreDocIdsAcrossSegmentsWithTheirValues() throws Exception {
    TestIndex test = TestIndex.build(dir, 2_000, 150);
    try (Directory d = LuceneShim.INSTANCE.openMMapDirectory(test.index);
        DirectoryReader reader = DirectoryReader.open(d)) {
      assertEquals(2_000, reader.maxDoc());
      // Ten flushed segments merged into one, as on every version (with flushes below
      // LogDocMergePolicy's 1,000 minimum docs, 9+ merges small segments differently).
      assertEquals(List.of(1_500, 150, 150, 150, 50),
          LuceneShim.INSTANCE.leaves(reader).stream().map(l -> l.reader().maxDoc()).toList());
      for (LuceneShim.Leaf leaf : LuceneShim.INSTANCE.leaves(reader)) {
        for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
          int row = leaf.docBase() + doc;
          assertEquals(row, DvuSchema.row(reader, row), "docID " + row);
          TestIndex.Doc expected = test.docs.get(row);
          assertEquals(expected.lastmod(row), DocValuesAt.numeric(leaf.reader(), DvuSchema.LASTMOD, doc));
          assertEquals(new BytesRef(expected.title()), DocValuesAt.binary(leaf.reader(), DvuSchema.TITLE_DV, doc));
        }
      }
    }
  }

  @Test
  void theIdFieldGetsTheChosenPostingsFormatAndTheTableCountsTheIndex() throws Exception {
    TestIndex test = TestIndex.build(dir, 100, 1_000);
    Path other = dir.resolve("direct");
    Table built = DvuIndexer.build(test.docsTsv.toString(), other.toString(), "Direct", 40, Progress.NONE);
    assertEquals(100L, built.get("docs", 0));
    assertEquals(3L, built.get("segments", 0));
    assertTrue((long) built.get("bytes", 0) > 0);
    try (Directory d = LuceneShim.INSTANCE.openMMapDirectory(other);
        DirectoryReader reader = DirectoryReader.open(d)) {
      for (LuceneShim.Leaf leaf : LuceneShim.INSTANCE.leaves(reader)) {
        assertEquals("Direct", LuceneShim.INSTANCE.fieldAttribute(leaf.reader(), "id", FORMAT));
        assertNotEquals("Direct", LuceneShim.INSTANCE.fieldAttribute(leaf.reader(), "body", FORMAT));
      }
    }
  }
}
