package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.util.BytesRef;

/**
 * The seed's "binary": {@code updateBinaryDocValue} of title_dv, a field no search reads, so its
 * effect on searches is the reopen's cost alone.
 */
record BinaryUpdate(IndexWriter writer, DvuCorpus corpus) implements Update {

  @Override
  public void apply(long k, int row) throws IOException {
    writer.updateBinaryDocValue(DvuSchema.idTerm(corpus.id(row)), DvuSchema.TITLE_DV,
        new BytesRef(DvuSchema.title(corpus.title(row), k)));
  }
}
