package org.lucenerevisited.dvupdate;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.NRTCachingDirectory;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * One method's writer on the benchmark's copy of the index, set up as in the seed: an
 * NRTCachingDirectory over MMapDirectory (flushed segments up to 5 MB, 60 MB in all, stay in RAM),
 * Lucene's default merge policy, RAM buffer and concurrent merges. Closing it rolls the writer back,
 * so the index is at its commit again for the next session.
 */
final class UpdateSession implements Closeable {

  private final Directory directory;
  final IndexWriter writer;
  final Methods.Method method;
  private final int rows;

  UpdateSession(DvuSpec spec, DvuCorpus corpus) throws IOException {
    IndexWriterConfig config = Methods.config(spec.method, spec.idFormat)
        .setOpenMode(IndexWriterConfig.OpenMode.APPEND);
    directory = new NRTCachingDirectory(LuceneShim.INSTANCE.openMMapDirectory(Path.of(spec.indexPath)), 5.0, 60.0);
    try {
      writer = new IndexWriter(directory, config);
    } catch (IOException | RuntimeException e) {
      directory.close();
      throw e;
    }
    method = Methods.open(spec.method, writer, corpus, spec.ramBufferBudgetBytes);
    rows = corpus.rows();
  }

  /** The method's first reader; fails unless the index holds the corpus (one document per row). */
  IndexReader open() throws IOException {
    IndexReader reader = method.reopener().open();
    if (reader.maxDoc() != rows || reader.numDocs() != rows) {
      int maxDoc = reader.maxDoc();
      reader.decRef();
      throw new IllegalStateException("the index has " + maxDoc + " documents, the corpus " + rows
          + " rows: not an unchanged index of this corpus");
    }
    return reader;
  }

  @Override
  public void close() throws IOException {
    try {
      writer.rollback();
    } finally {
      directory.close();
    }
  }
}
