package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.util.BytesRef;

/**
 * Two DocValues fields of one document at once: {@code updateNumericDocValue} of lastmod and
 * {@code updateBinaryDocValue} of title_dv. The next reopen rewrites both fields of every segment
 * holding an updated document, the cost the seed expected to multiply with the fields updated.
 */
final class TwoFieldsUpdate implements Update {

  private final IndexWriter writer;
  private final DvuCorpus corpus;

  TwoFieldsUpdate(IndexWriter writer, DvuCorpus corpus) {
    this.writer = writer;
    this.corpus = corpus;
  }

  @Override
  public void apply(long k, int row) throws IOException {
    writer.updateNumericDocValue(DvuSchema.idTerm(corpus.id(row)), DvuSchema.LASTMOD, DvuSchema.value(k));
    writer.updateBinaryDocValue(DvuSchema.idTerm(corpus.id(row)), DvuSchema.TITLE_DV,
        new BytesRef(DvuSchema.title(corpus.title(row), k)));
  }
}
