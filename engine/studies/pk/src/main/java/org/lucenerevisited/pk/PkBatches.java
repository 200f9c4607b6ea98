package org.lucenerevisited.pk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.corpus.KeysTsv;

/**
 * A key set cut into batches of {@code batchSize} keys in file order, each batch sorted in
 * BytesRef (unsigned byte) order, as a PK-lookup batch is resolved: sorted keys make a
 * segment's successive seekExact calls move forward through its terms dictionary. Sorting
 * happens here, once, outside any timed region.
 */
final class PkBatches {

  /** keys[b][i]: i-th key of batch b, in sorted order. */
  final BytesRef[][] keys;
  /** Expected global docID (or -1) of keys[b][i]. */
  final int[][] expected;
  /** Position in the keys file of keys[b][i]. */
  final int[][] fileIndex;
  final int size;

  private PkBatches(BytesRef[][] keys, int[][] expected, int[][] fileIndex, int size) {
    this.keys = keys;
    this.expected = expected;
    this.fileIndex = fileIndex;
    this.size = size;
  }

  static PkBatches load(Path keysTsv, int batchSize) throws IOException {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
    }
    KeysTsv file = KeysTsv.read(keysTsv);
    int n = file.size();
    int batches = (n + batchSize - 1) / batchSize;
    BytesRef[][] keys = new BytesRef[batches][];
    int[][] expected = new int[batches][];
    int[][] fileIndex = new int[batches][];
    for (int b = 0; b < batches; b++) {
      int from = b * batchSize;
      int len = Math.min(batchSize, n - from);
      BytesRef[] raw = new BytesRef[len];
      for (int i = 0; i < len; i++) {
        raw[i] = new BytesRef(file.key(from + i));
      }
      Integer[] order = new Integer[len];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, Comparator.comparing(i -> raw[i]));
      keys[b] = new BytesRef[len];
      expected[b] = new int[len];
      fileIndex[b] = new int[len];
      for (int i = 0; i < len; i++) {
        keys[b][i] = raw[order[i]];
        expected[b][i] = file.expectedRow(from + order[i]);
        fileIndex[b][i] = from + order[i];
      }
    }
    return new PkBatches(keys, expected, fileIndex, n);
  }
}
