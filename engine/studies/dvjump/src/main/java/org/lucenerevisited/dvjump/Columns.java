package org.lucenerevisited.dvjump;

import java.io.IOException;
import org.apache.lucene.util.BytesRef;

/**
 * The DocValues of one segment as one request reads them: a request asks {@link #numeric} or
 * {@link #sorted} for each field it needs, then positions the column on documents in whatever order
 * it needs them. How a version serves a position decides the study's results: random access
 * (Lucene 6), a forward-only iterator that must start over from the segment's first document when
 * the request goes back or asks for a fresh column (Lucene 7 and later, as Solr 7 reads it), or jump
 * tables.
 */
public interface Columns {

  NumericColumn numeric(String field) throws IOException;

  SortedColumn sorted(String field) throws IOException;

  /** One numeric field. */
  interface NumericColumn {
    /** Whether {@code doc} has a value; positions the column on it. */
    boolean advanceExact(int doc) throws IOException;

    long longValue() throws IOException;
  }

  /** One sorted (string) field: ordinals, and their terms. */
  interface SortedColumn {
    boolean advanceExact(int doc) throws IOException;

    int ordValue() throws IOException;

    BytesRef lookupOrd(int ord) throws IOException;

    int valueCount();
  }

  /** Where a contender's columns come from: one per segment and searching thread, kept between requests. */
  interface Source {
    /** The columns of one request. */
    Columns columns();

    /** Time spent building structures on first access (search-time jump tables), so far. */
    default long buildNanos() {
      return 0;
    }

    /** Heap those structures hold, so far. */
    default long heapBytes() {
      return 0;
    }
  }
}
