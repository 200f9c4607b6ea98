package org.lucenerevisited.dvjump;

import java.io.IOException;
import java.util.List;
import org.lucenerevisited.engine.harness.Digest;

/**
 * Document retrieval from DocValues: the top hits by relevance, then each of the fields read for
 * each of those documents in rank order, which is random docID order: the seed's netarchive search
 * keeps nearly all retrievable fields in DocValues only.
 */
record RetrieveRequest(List<String> fields, int rows) implements Request {

  @Override
  public long run(Matches hits, Columns columns) throws IOException {
    return retrieve(hits.top(rows), fields, columns, new Digest()).value();
  }

  /**
   * Reads {@code fields} of {@code docs} in the given order, values into the digest, with a fresh column
   * per document and field: Solr 7's export field writers and its retrieval of DocValues fields
   * ({@code decorateDocValueFields}) ask the reader for the field's DocValues anew for every document.
   * Without jump tables, every such read of a Lucene 7 iterator starts at the segment's first block.
   */
  static Digest retrieve(int[] docs, List<String> fields, Columns columns, Digest digest) throws IOException {
    boolean[] numeric = new boolean[fields.size()];
    for (int f = 0; f < fields.size(); f++) {
      numeric[f] = DvjSchema.numeric(fields.get(f));
    }
    for (int doc : docs) {
      digest.add(doc);
      for (int f = 0; f < fields.size(); f++) {
        if (numeric[f]) {
          Columns.NumericColumn column = columns.numeric(fields.get(f));
          digest.add(column.advanceExact(doc) ? column.longValue() : Long.MIN_VALUE);
        } else {
          Columns.SortedColumn column = columns.sorted(fields.get(f));
          if (column.advanceExact(doc)) {
            digest.add(column.lookupOrd(column.ordValue()));
          } else {
            digest.add(Long.MIN_VALUE);
          }
        }
      }
    }
    return digest;
  }
}
