package org.lucenerevisited.dvupdate;

import java.io.IOException;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.util.BytesRef;

/** One document's DocValues, Lucene 7's way: a fresh iterator advanced to it. */
final class DocValuesAt {

  private DocValuesAt() {}

  /** The value of a leaf's document, or Long.MIN_VALUE if it has none. */
  static long numeric(IndexReader leaf, String field, int doc) throws IOException {
    NumericDocValues values = DocValues.getNumeric((LeafReader) leaf, field);
    return values.advanceExact(doc) ? values.longValue() : Long.MIN_VALUE;
  }

  /** A copy of the value of a leaf's document, or null if it has none. */
  static BytesRef binary(IndexReader leaf, String field, int doc) throws IOException {
    BinaryDocValues values = DocValues.getBinary((LeafReader) leaf, field);
    return values.advanceExact(doc) ? BytesRef.deepCopyOf(values.binaryValue()) : null;
  }
}
