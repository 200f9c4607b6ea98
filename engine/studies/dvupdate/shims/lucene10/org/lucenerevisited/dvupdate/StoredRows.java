package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.IndexReader;

/** The stored row of a document, read through {@code storedFields()} (Lucene 9 and later). */
final class StoredRows {

  private StoredRows() {}

  static int row(IndexReader reader, int doc) throws IOException {
    return reader.storedFields().document(doc).getField(DvuSchema.ROW).numericValue().intValue();
  }
}
