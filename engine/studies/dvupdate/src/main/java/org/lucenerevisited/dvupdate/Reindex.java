package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.IndexWriter;

/**
 * The seed's "reindex": the document is read again from the corpus and replaced whole
 * ({@code updateDocument}), with the updated lastmod and title_dv.
 */
record Reindex(IndexWriter writer, DvuCorpus corpus) implements Update {

  @Override
  public void apply(long k, int row) throws IOException {
    DvuCorpus.Row doc = corpus.read(row);
    writer.updateDocument(DvuSchema.idTerm(doc.id()), DvuSchema.updated(doc, k));
  }
}
