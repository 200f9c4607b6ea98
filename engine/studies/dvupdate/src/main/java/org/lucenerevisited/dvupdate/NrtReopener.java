package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * Lucene's own NRT reopen, applying all deletes: it flushes the buffered documents and writes every
 * segment's pending DocValues updates, rewriting the whole field of each segment they touch.
 */
final class NrtReopener implements Reopener {

  private final IndexWriter writer;

  NrtReopener(IndexWriter writer) {
    this.writer = writer;
  }

  @Override
  public IndexReader open() throws IOException {
    return LuceneShim.INSTANCE.openNrtReader(writer);
  }

  @Override
  public Reopened reopen(IndexReader current) throws IOException {
    return new Reopened(LuceneShim.INSTANCE.reopenNrtReader((DirectoryReader) current, writer), 0, false);
  }
}
