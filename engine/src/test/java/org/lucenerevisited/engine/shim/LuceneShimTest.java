package org.lucenerevisited.engine.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.file.Path;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.FixedBitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The searching half of the shim, on the major this engine is built for: two segments, one deleted
 * doc, and more matches than the 1,000 at which 8+ stop counting unless told otherwise.
 */
class LuceneShimTest {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;
  private static final int DOCS = 2_500;
  /** Even ids are kind "a"; id 0 is deleted. */
  private static final int LIVE_A = DOCS / 2 - 1;

  @TempDir Path dir;

  private Directory index() throws Exception {
    Directory directory = SHIM.openMMapDirectory(dir);
    try (IndexWriter writer = new IndexWriter(directory, SHIM.newIndexWriterConfig())) {
      for (int i = 0; i < DOCS; i++) {
        Document doc = new Document();
        doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
        doc.add(new StringField("kind", i % 2 == 0 ? "a" : "b", Field.Store.NO));
        writer.addDocument(doc);
        if (i == DOCS / 2) {
          writer.commit(); // a second segment
        }
      }
      writer.deleteDocuments(new Term("id", "0"));
    }
    return directory;
  }

  @Test
  void topDocsCountsEveryLiveHitAndReadsStoredFields() throws Exception {
    try (Directory directory = index(); DirectoryReader reader = DirectoryReader.open(directory)) {
      assertTrue(reader.leaves().size() >= 2, "two segments");
      IndexSearcher searcher = SHIM.newSearcher(reader);
      TopDocs top = SHIM.topDocs(searcher, new TermQuery(new Term("kind", "a")), 10);
      assertEquals(LIVE_A, SHIM.totalHits(top));
      assertEquals(10, top.scoreDocs.length);
      for (ScoreDoc hit : top.scoreDocs) {
        int id = Integer.parseInt(SHIM.document(reader, hit.doc).get("id"));
        assertTrue(id % 2 == 0 && id != 0, "id " + id);
      }
    }
  }

  @Test
  void searcherHasNoQueryCache() throws Exception {
    try (Directory directory = index(); DirectoryReader reader = DirectoryReader.open(directory)) {
      IndexSearcher searcher = SHIM.newSearcher(reader);
      Method getter;
      try {
        getter = IndexSearcher.class.getMethod("getQueryCache");
      } catch (NoSuchMethodException e) {
        Class.forName("org.apache.lucene.index.AtomicReader"); // only 4.x has no query cache
        return;
      }
      assertNull(getter.invoke(searcher));
    }
  }

  @Test
  void docSetsHoldTheLiveMatchesAndQueryThemBack() throws Exception {
    try (Directory directory = index(); DirectoryReader reader = DirectoryReader.open(directory)) {
      IndexSearcher searcher = SHIM.newSearcher(reader);
      FixedBitSet[] sets = SHIM.collectDocs(searcher, new TermQuery(new Term("kind", "a")));
      assertTrue(reader.leaves().size() >= 2, "two segments");
      assertEquals(reader.leaves().size(), sets.length);
      long bits = 0;
      for (int leaf = 0; leaf < sets.length; leaf++) {
        int docBase = reader.leaves().get(leaf).docBase;
        for (int doc = 0; doc < sets[leaf].length(); doc++) {
          if (!sets[leaf].get(doc)) {
            continue;
          }
          int id = Integer.parseInt(SHIM.document(reader, docBase + doc).get("id"));
          assertTrue(id % 2 == 0 && id != 0, "id " + id);
          bits++;
        }
      }
      assertEquals(LIVE_A, bits);
      sets[0].set(0); // id 0, deleted: the query matches live docs only
      Query back = SHIM.docSetQuery(sets);
      assertEquals(LIVE_A, SHIM.totalHits(SHIM.topDocs(searcher, back, 5)));
      assertNotEquals(back, SHIM.docSetQuery(sets), "two requests' sets are never one cache entry");
    }
  }
}
