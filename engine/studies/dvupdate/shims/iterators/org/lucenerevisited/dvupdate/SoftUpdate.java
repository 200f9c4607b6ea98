package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;

/**
 * Reindex with soft deletes (Lucene 7.4+): the replaced document is not deleted but marked by a
 * DocValues field, which NRT readers of the writer read as a deletion. The marks are DocValues
 * updates, so each reopen writes that field of every segment holding a replaced document.
 */
final class SoftUpdate implements Update {

  static final String FIELD = "__soft_deletes";

  private final IndexWriter writer;
  private final DvuCorpus corpus;

  private SoftUpdate(IndexWriter writer, DvuCorpus corpus) {
    this.writer = writer;
    this.corpus = corpus;
  }

  static IndexWriterConfig configure(IndexWriterConfig config) {
    return config.setSoftDeletesField(FIELD);
  }

  /** The method on a writer opened with {@link #configure}. */
  static Update open(IndexWriter writer, DvuCorpus corpus) {
    return new SoftUpdate(writer, corpus);
  }

  @Override
  public void apply(long k, int row) throws IOException {
    DvuCorpus.Row doc = corpus.read(row);
    writer.softUpdateDocument(DvuSchema.idTerm(doc.id()), DvuSchema.updated(doc, k),
        new NumericDocValuesField(FIELD, 1));
  }
}
