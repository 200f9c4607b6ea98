package org.lucenerevisited.pk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.SerialMergeScheduler;
import org.lucenerevisited.engine.shim.LuceneShim;

/** Index settings and file chores shared by the indexer and the reopen benchmark. */
final class PkIndexes {

  private PkIndexes() {}

  /**
   * Flush exactly every {@code segmentDocs} docs (RAM-triggered flush off) on one thread, and merge
   * serially with LogDocMergePolicy, which only merges adjacent segments: segmentation is
   * deterministic and merges keep doc order, so global docID == corpus row.
   */
  static IndexWriterConfig writerConfig(String contender, int segmentDocs) {
    IndexWriterConfig iwc = LuceneShim.INSTANCE.newIndexWriterConfig();
    iwc.setCodec(PkContenders.codec(contender));
    iwc.setMaxBufferedDocs(segmentDocs);
    iwc.setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH);
    iwc.setMergePolicy(new LogDocMergePolicy());
    iwc.setMergeScheduler(new SerialMergeScheduler());
    return iwc;
  }

  /** Copies an index's files, without its write lock, into a fresh {@code to}. */
  static void copyIndex(Path from, Path to) throws IOException {
    deleteRecursively(to);
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(f) && !f.getFileName().toString().equals("write.lock")) {
          Files.copy(f, to.resolve(f.getFileName()));
        }
      }
    }
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  /**
   * One reusable document: id is a StringField (indexed as a single term, docs only, not
   * stored), body a whitespace-analysed TextField, not stored. Without id it is the baseline.
   */
  static final class PkDocument {
    private final Document doc = new Document();
    private final Field id = new StringField(PkContenders.ID_FIELD, "", Field.Store.NO);
    private final Field body = new TextField("body", "", Field.Store.NO);

    PkDocument(boolean withId) {
      if (withId) {
        doc.add(id);
      }
      doc.add(body);
    }

    Document set(String idValue, String bodyValue) {
      id.setStringValue(idValue);
      body.setStringValue(bodyValue);
      return doc;
    }
  }
}
