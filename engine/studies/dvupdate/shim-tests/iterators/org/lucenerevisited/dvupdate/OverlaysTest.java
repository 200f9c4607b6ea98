package org.lucenerevisited.dvupdate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lucenerevisited.engine.harness.Table;

/**
 * overlays-N, numeric updates with Lucene's DocValues overlays: on 10.6+ they answer as brute force
 * and leave the values a full rewrite leaves, while writing less; before 10.6 they are refused by
 * name and version.
 */
class OverlaysTest {

  @TempDir Path dir;

  private static boolean hasOverlays() {
    return Version.LATEST.major > 10 || (Version.LATEST.major == 10 && Version.LATEST.minor >= 6);
  }

  @Test
  void overlaysAnswerAsTheFullRewriteOrAreRefusedByVersion() throws Exception {
    TestIndex test = TestIndex.build(dir, 3_000, 150);
    if (!hasOverlays()) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> new DvuBench(test.spec("overlays-8")));
      assertTrue(e.getMessage().contains("'overlays-8'") && e.getMessage().contains(Version.LATEST.toString()),
          e.getMessage());
      return;
    }
    Table numeric = Checks.verify(test.spec("numeric"));
    for (String method : new String[] {"overlays-1", "overlays-8"}) {
      Table overlays = Checks.verify(test.spec(method));
      assertEquals(Checks.finalActual(numeric, "lastmod"), Checks.finalActual(overlays, "lastmod"), method);
      assertEquals(Checks.finalActual(numeric, "title_dv"), Checks.finalActual(overlays, "title_dv"), method);
    }
    Checks.run(test, test.spec("overlays-8"));
    Checks.assertIndexAsCommitted(test);
  }

  @Test
  void anOverlayWritesOnlyTheUpdatedDocuments() throws Exception {
    if (!hasOverlays()) {
      return;
    }
    long rewrite = bytesOfOneUpdate(dir.resolve("rewrite"), 0);
    long overlay = bytesOfOneUpdate(dir.resolve("overlay"), 1);
    assertTrue(overlay * 4 < rewrite, "one update wrote " + overlay + " bytes with overlays, " + rewrite + " without");
  }

  @Test
  void aNameThatIsNoMethodIsRefused() {
    for (String name : new String[] {"overlays-0", "overlays-x", "overlay"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Methods.overlays(name));
      assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
    }
  }

  /** Bytes of the files one commit of one updated value adds to a one-segment index of 20,000 values. */
  private static long bytesOfOneUpdate(Path path, int overlays) throws Exception {
    try (Directory directory = FSDirectory.open(path)) {
      IndexWriterConfig config = new IndexWriterConfig(null).setMaxBufferedDocs(100_000);
      if (overlays > 0) {
        DocValuesOverlays.configure(config, overlays);
      }
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int doc = 0; doc < 20_000; doc++) {
          Document d = new Document();
          d.add(new StringField("id", Integer.toString(doc), Field.Store.NO));
          d.add(new NumericDocValuesField("v", doc * 7_919L % 65_521));
          writer.addDocument(d);
        }
        writer.commit();
        Set<String> before = new HashSet<>(Set.of(directory.listAll()));
        writer.updateNumericDocValue(new Term("id", "17"), "v", 1L);
        writer.commit();
        long bytes = 0;
        for (String file : directory.listAll()) {
          if (!before.contains(file)) {
            bytes += Files.size(path.resolve(file));
          }
        }
        return bytes;
      }
    }
  }
}
