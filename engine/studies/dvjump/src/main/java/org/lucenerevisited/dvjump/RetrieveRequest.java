package org.lucenerevisited.dvjump;

import java.io.IOException;
import java.util.List;

/**
 * Document retrieval from DocValues: the top hits by relevance, then each of the fields read for
 * each of those documents in rank order, which is random docID order: the seed's netarchive search
 * keeps nearly all retrievable fields in DocValues only.
 */
final class RetrieveRequest implements Request {

  private final List<String> fields;
  private final int rows;

  RetrieveRequest(List<String> fields, int rows) {
    this.fields = fields;
    this.rows = rows;
  }

  @Override
  public long run(Matches hits, Columns columns) throws IOException {
    return retrieve(hits.top(rows), fields, columns, new Digest()).value();
  }

  /** Reads {@code fields} of {@code docs} in the given order, one column per field, values into the digest. */
  static Digest retrieve(int[] docs, List<String> fields, Columns columns, Digest digest) throws IOException {
    Columns.NumericColumn[] numerics = new Columns.NumericColumn[fields.size()];
    Columns.SortedColumn[] sorted = new Columns.SortedColumn[fields.size()];
    for (int f = 0; f < fields.size(); f++) {
      if (DvjSchema.numeric(fields.get(f))) {
        numerics[f] = columns.numeric(fields.get(f));
      } else {
        sorted[f] = columns.sorted(fields.get(f));
      }
    }
    for (int doc : docs) {
      digest.add(doc);
      for (int f = 0; f < fields.size(); f++) {
        if (numerics[f] != null) {
          digest.add(numerics[f].advanceExact(doc) ? numerics[f].longValue() : Long.MIN_VALUE);
        } else if (sorted[f].advanceExact(doc)) {
          digest.add(sorted[f].lookupOrd(sorted[f].ordValue()));
        } else {
          digest.add(Long.MIN_VALUE);
        }
      }
    }
    return digest;
  }
}
