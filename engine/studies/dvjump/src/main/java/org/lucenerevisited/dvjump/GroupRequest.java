package org.lucenerevisited.dvjump;

import java.io.IOException;

/**
 * Grouping (Solr's group.field, one document per group): the hits grouped by the field's value,
 * reading it in docID order; a group ranks by its best hit (frequency, then docID), the top groups
 * are returned with their best document, and their terms resolved. Hits without a value are left out.
 */
final class GroupRequest implements Request {

  private final String field;
  private final int limit;

  GroupRequest(String field, int limit) {
    this.field = field;
    this.limit = limit;
  }

  @Override
  public long run(Matches hits, Columns columns) throws IOException {
    return groups(hits, columns.sorted(field), limit, new Digest()).value();
  }

  static Digest groups(Matches hits, Columns.SortedColumn column, int limit, Digest digest) throws IOException {
    // Per ordinal, its best hit so far: frequency and docID (hits come in docID order, so a later hit
    // replaces it only with a higher frequency).
    int[] bestFreq = new int[column.valueCount()];
    int[] bestDoc = new int[column.valueCount()];
    for (int i = 0; i < hits.size(); i++) {
      if (column.advanceExact(hits.doc(i))) {
        int ord = column.ordValue();
        if (hits.freq(i) > bestFreq[ord]) {
          bestFreq[ord] = hits.freq(i);
          bestDoc[ord] = hits.doc(i);
        }
      }
    }
    TopK top = new TopK(limit);
    for (int ord = 0; ord < bestFreq.length; ord++) {
      if (bestFreq[ord] > 0) {
        top.offer(bestFreq[ord], bestDoc[ord], ord);
      }
    }
    for (int ord : top.payloadsBestFirst()) {
      digest.add(column.lookupOrd(ord)).add(bestDoc[ord]).add(bestFreq[ord]);
    }
    return digest;
  }
}
