package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.IndexWriter;

/**
 * The seed's "numeric": {@code updateNumericDocValue} of lastmod. The writer only buffers the update;
 * the next reopen rewrites the lastmod field of every segment holding an updated document.
 */
final class NumericUpdate implements Update {

  private final IndexWriter writer;
  private final DvuCorpus corpus;

  NumericUpdate(IndexWriter writer, DvuCorpus corpus) {
    this.writer = writer;
    this.corpus = corpus;
  }

  @Override
  public void apply(long k, int row) throws IOException {
    writer.updateNumericDocValue(DvuSchema.idTerm(corpus.id(row)), DvuSchema.LASTMOD, DvuSchema.value(k));
  }
}
