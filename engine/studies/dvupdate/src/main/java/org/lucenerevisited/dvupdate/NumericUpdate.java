package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.IndexWriter;

/**
 * The seed's "numeric": {@code updateNumericDocValue} of lastmod. The writer only buffers the update;
 * the next reopen rewrites the lastmod field of every segment holding an updated document.
 */
record NumericUpdate(IndexWriter writer, DvuCorpus corpus) implements Update {

  @Override
  public void apply(long k, int row) throws IOException {
    writer.updateNumericDocValue(DvuSchema.idTerm(corpus.id(row)), DvuSchema.LASTMOD, DvuSchema.value(k));
  }
}
