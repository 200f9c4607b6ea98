package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.IndexReader;

/** The stored row of a document, read through {@code IndexReader.document} (Lucene 4 to 8; 10 has no such method). */
final class StoredRows {

  private StoredRows() {}

  static int row(IndexReader reader, int doc) throws IOException {
    return reader.document(doc).getField(DvuSchema.ROW).numericValue().intValue();
  }
}
