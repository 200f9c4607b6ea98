package org.lucenerevisited.engine.corpus;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A lookup key set read from {@code keys-*.tsv}: lines {@code key<TAB>expectedRow}, UTF-8, where
 * expectedRow is the key's row in docs.tsv, or -1 for a key that is not in the corpus.
 */
public final class KeysTsv {

  private final String[] keys;
  private final int[] expectedRows;

  private KeysTsv(String[] keys, int[] expectedRows) {
    this.keys = keys;
    this.expectedRows = expectedRows;
  }

  public static KeysTsv read(Path keysTsv) throws IOException {
    List<String> keys = new ArrayList<>();
    List<Integer> rows = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(keysTsv, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        int tab = line.indexOf('\t');
        if (tab < 0) {
          throw new IOException(keysTsv + " line " + (keys.size() + 1) + ": expected key<TAB>row");
        }
        keys.add(line.substring(0, tab));
        rows.add(Integer.parseInt(line.substring(tab + 1).trim()));
      }
    }
    return new KeysTsv(
        keys.toArray(new String[0]), rows.stream().mapToInt(Integer::intValue).toArray());
  }

  public int size() {
    return keys.length;
  }

  public String key(int i) {
    return keys[i];
  }

  /** Row in docs.tsv (= global docID of the index), or -1 for a miss. */
  public int expectedRow(int i) {
    return expectedRows[i];
  }
}
