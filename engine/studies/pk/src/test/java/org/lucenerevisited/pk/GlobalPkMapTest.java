package org.lucenerevisited.pk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Progress;
import org.lucenerevisited.engine.shim.LuceneShim;

class GlobalPkMapTest {

  @TempDir
  Path tmp;

  private GlobalPkMap mapOf(TestCorpus corpus, String name) throws Exception {
    PkIndexer.build(corpus.docs.toString(), tmp.resolve(name).toString(),
        new String[] {"default"}, 300, true, Progress.NONE);
    Path path = tmp.resolve(name).resolve("default").resolve("multi");
    try (Directory dir = LuceneShim.INSTANCE.openMMapDirectory(path);
        DirectoryReader reader = DirectoryReader.open(dir)) {
      return GlobalPkMap.build(reader, "id");
    }
  }

  @Test
  void paddedIntegersUseTheDenseArray() throws Exception {
    TestCorpus corpus = TestCorpus.padded(tmp.resolve("p"), 1000);
    GlobalPkMap map = mapOf(corpus, "p-idx");
    assertEquals("dense-array", map.kind());
    assertEquals(1000, map.size());
    assertEquals(17, map.get(new BytesRef("00000017")));
    assertEquals(-1, map.get(new BytesRef("17")));
    assertEquals(-1, map.get(new BytesRef("00001000")));
    assertTrue(map.ramBytesUsed() >= 4 * 1000);
  }

  @Test
  void uuidsUseTheHashTable() throws Exception {
    TestCorpus corpus = TestCorpus.uuids(tmp.resolve("u"), 1000);
    GlobalPkMap map = mapOf(corpus, "u-idx");
    assertEquals("hash", map.kind());
    for (int i = 0; i < 1000; i++) {
      assertEquals(i, map.get(new BytesRef(corpus.ids.get(i))));
    }
    assertEquals(-1, map.get(new BytesRef("not-an-id")));
    assertTrue(map.ramBytesUsed() > 36 * 1000);
  }

  @Test
  void deletedDocsAreNotMapped() throws Exception {
    TestCorpus corpus = TestCorpus.uuids(tmp.resolve("d"), 500);
    PkIndexer.build(corpus.docs.toString(), tmp.resolve("d-idx").toString(),
        new String[] {"default"}, 100, true, Progress.NONE);
    Path path = tmp.resolve("d-idx").resolve("default").resolve("multi");
    IndexWriterConfig iwc = PkIndexes.writerConfig("default", 100);
    try (Directory dir = LuceneShim.INSTANCE.openMMapDirectory(path);
        IndexWriter writer = new IndexWriter(dir, iwc)) {
      writer.deleteDocuments(new Term("id", corpus.ids.get(42)));
      try (DirectoryReader reader = LuceneShim.INSTANCE.openNrtReader(writer)) {
        GlobalPkMap map = GlobalPkMap.build(reader, "id");
        assertEquals(-1, map.get(new BytesRef(corpus.ids.get(42))));
        assertEquals(43, map.get(new BytesRef(corpus.ids.get(43))));
        assertEquals(499, map.size());
      }
      writer.rollback();
    }
  }
}
