package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.AtomicReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/** One document's DocValues, Lucene 4's way: random access by docID. */
final class DocValuesAt {

  private DocValuesAt() {}

  /** The value of a leaf's document, or Long.MIN_VALUE if it has none. */
  static long numeric(IndexReader leaf, String field, int doc) throws IOException {
    AtomicReader reader = (AtomicReader) leaf;
    Bits has = reader.getDocsWithField(field);
    return has != null && has.get(doc) ? reader.getNumericDocValues(field).get(doc) : Long.MIN_VALUE;
  }

  /** A copy of the value of a leaf's document, or null if it has none. */
  static BytesRef binary(IndexReader leaf, String field, int doc) throws IOException {
    AtomicReader reader = (AtomicReader) leaf;
    Bits has = reader.getDocsWithField(field);
    return has != null && has.get(doc) ? BytesRef.deepCopyOf(reader.getBinaryDocValues(field).get(doc)) : null;
  }
}
