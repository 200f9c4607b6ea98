package org.lucenerevisited.dvjump;

import java.util.Arrays;

/**
 * The {@code k} best entries offered, each with an int payload: a bounded heap with the worst on
 * top, as Lucene's top-k collectors keep one. An entry ranks by its value, then by the lower docID.
 */
final class TopK {

  private final long[] values;
  private final int[] docs;
  private final int[] payloads;
  private int size;

  TopK(int k) {
    values = new long[k];
    docs = new int[k];
    payloads = new int[k];
  }

  /** Whether (value a, doc a) ranks above (value b, doc b). */
  static boolean better(long valueA, int docA, long valueB, int docB) {
    return valueA != valueB ? valueA > valueB : docA < docB;
  }

  void offer(long value, int doc, int payload) {
    if (size < values.length) {
      set(size, value, doc, payload);
      up(size++);
    } else if (values.length > 0 && better(value, doc, values[0], docs[0])) {
      set(0, value, doc, payload);
      down();
    }
  }

  /** Payloads of the kept entries, best first. */
  int[] payloadsBestFirst() {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> better(values[a], docs[a], values[b], docs[b]) ? -1 : 1);
    int[] out = new int[size];
    for (int i = 0; i < size; i++) {
      out[i] = payloads[order[i]];
    }
    return out;
  }

  private boolean worse(int i, int j) {
    return better(values[j], docs[j], values[i], docs[i]);
  }

  private void set(int i, long value, int doc, int payload) {
    values[i] = value;
    docs[i] = doc;
    payloads[i] = payload;
  }

  private void up(int i) {
    while (i > 0 && worse(i, (i - 1) / 2)) {
      swap(i, (i - 1) / 2);
      i = (i - 1) / 2;
    }
  }

  private void down() {
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= size) {
        return;
      }
      if (child + 1 < size && worse(child + 1, child)) {
        child++;
      }
      if (!worse(child, i)) {
        return;
      }
      swap(i, child);
      i = child;
    }
  }

  private void swap(int a, int b) {
    long v = values[a];
    values[a] = values[b];
    values[b] = v;
    int d = docs[a];
    docs[a] = docs[b];
    docs[b] = d;
    int p = payloads[a];
    payloads[a] = payloads[b];
    payloads[b] = p;
  }
}
