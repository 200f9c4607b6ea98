package org.lucenerevisited.dvjump;

import java.io.IOException;
import org.lucenerevisited.engine.harness.Digest;

/**
 * Grouping (Solr's group.field, one document per group): the hits grouped by the field's value,
 * reading it in docID order; a group ranks by its best hit (frequency, then docID), the top groups
 * are returned with their best document, and their terms resolved. Hits without a value are left out.
 */
record GroupRequest(String field, int limit) implements Request {

  @Override
  public long run(Matches hits, Columns columns) throws IOException {
    return groups(hits, columns.sorted(field), limit, new Digest()).value();
  }

  static Digest groups(Matches hits, Columns.SortedColumn column, int limit, Digest digest) throws IOException {
    Best best = new Best(2 * Math.min(column.valueCount(), hits.size()));
    // Hits come in docID order, so a later hit replaces a group's best only with a higher frequency.
    for (int i = 0; i < hits.size(); i++) {
      if (column.advanceExact(hits.doc(i))) {
        best.offer(column.ordValue(), hits.freq(i), hits.doc(i));
      }
    }
    TopK top = new TopK(limit);
    for (int slot = 0; slot < best.ords.length; slot++) {
      if (best.freqs[slot] > 0) {
        top.offer(best.freqs[slot], best.docs[slot], slot);
      }
    }
    for (int slot : top.payloadsBestFirst()) {
      digest.add(column.lookupOrd(best.ords[slot])).add(best.docs[slot]).add(best.freqs[slot]);
    }
    return digest;
  }

  /**
   * Each group's best hit, in an open-addressing table sized by the hits, not by the field's
   * cardinality: like Solr's first grouping pass, a request with few hits costs little on a field
   * with millions of values (two arrays of the value count would cost the same for 1 hit as for 1M).
   */
  private static final class Best {
    final int[] ords;
    final int[] freqs;
    final int[] docs;
    private final int mask;

    /** At least {@code slots} slots (a power of two); twice the groups there can be keeps probes short. */
    Best(int slots) {
      int capacity = Integer.highestOneBit(Math.max(2, slots) * 2 - 1);
      ords = new int[capacity];
      freqs = new int[capacity];
      docs = new int[capacity];
      mask = capacity - 1;
    }

    void offer(int ord, int freq, int doc) {
      int slot = (ord * 0x9E3779B9) & mask;
      while (freqs[slot] > 0 && ords[slot] != ord) {
        slot = (slot + 1) & mask;
      }
      if (freq > freqs[slot]) {
        ords[slot] = ord;
        freqs[slot] = freq;
        docs[slot] = doc;
      }
    }
  }
}
