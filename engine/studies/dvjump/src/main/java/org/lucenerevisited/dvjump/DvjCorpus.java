package org.lucenerevisited.dvjump;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the corpus files: {@code docs.tsv} (a header naming the fields, then one record per line;
 * an empty value means the record has no such field) and {@code queries.tsv} ({@code term, df,
 * bucket}). The record's line number after the header is its docID in the single-segment index.
 */
public final class DvjCorpus {

  /** Receives each record: its row and its values in header order (empty: no value). */
  public interface RecordConsumer {
    void accept(int row, String[] values) throws IOException;
  }

  /** One query term, its document frequency and its bucket (the m of 10^m; -1 for the export term). */
  public record Query(String term, int df, int bucket) {}

  private DvjCorpus() {}

  /** The header's field names. */
  public static List<String> fields(Path docsTsv) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(docsTsv, StandardCharsets.UTF_8)) {
      String header = in.readLine();
      if (header == null) {
        throw new IOException(docsTsv + ": empty, no header line");
      }
      return Arrays.asList(header.split("\t", -1));
    }
  }

  public static void forEach(Path docsTsv, RecordConsumer consumer) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(docsTsv, StandardCharsets.UTF_8)) {
      String header = in.readLine();
      int columns = header == null ? 0 : header.split("\t", -1).length;
      int row = 0;
      for (String line = in.readLine(); line != null; line = in.readLine(), row++) {
        String[] values = line.split("\t", -1);
        if (values.length != columns) {
          throw new IOException(docsTsv + ": row " + row + " has " + values.length + " values, the header "
              + columns);
        }
        consumer.accept(row, values);
      }
    }
  }

  public static List<Query> queries(Path queriesTsv) throws IOException {
    List<Query> out = new ArrayList<>();
    for (String line : Files.readAllLines(queriesTsv, StandardCharsets.UTF_8)) {
      String[] parts = line.split("\t");
      if (parts.length != 3) {
        throw new IOException(queriesTsv + ": not term<TAB>df<TAB>bucket: " + line);
      }
      out.add(new Query(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2])));
    }
    return out;
  }
}
