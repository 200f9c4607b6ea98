package org.lucenerevisited.join;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A corpus folder written by {@code data-recipes/join_corpus.py}: {@code docs.tsv}, one block per line
 * ({@code parent_id<TAB>join_key<TAB>text<TAB>acl_0,acl_1,...}, no header), and {@code queries.tsv}
 * ({@code term1 term2 term3<TAB>acl_lo<TAB>acl_hi}, no header). Docs are streamed, a line at a time.
 */
public final class JoinCorpus {

  public static final String DOCS = "docs.tsv";
  public static final String QUERIES = "queries.tsv";

  /** A parent and the acl values of its children, in order; child i has id {@code parentId-i}. */
  public record Block(String parentId, String joinKey, String text, int[] acls) {
    public String childId(int i) {
      return parentId + "-" + i;
    }
  }

  /** Receives one block. */
  @FunctionalInterface
  public interface BlockConsumer {
    void accept(Block block) throws IOException;
  }

  private JoinCorpus() {}

  /** Streams every block of {@code docsTsv} in file order. */
  public static void forEach(Path docsTsv, BlockConsumer consumer) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(docsTsv, StandardCharsets.UTF_8)) {
      int lineNo = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lineNo++;
        String[] f = fields(docsTsv, lineNo, line, 4);
        String[] acl = f[3].split(",", -1);
        int[] acls = new int[acl.length];
        for (int i = 0; i < acl.length; i++) {
          acls[i] = integer(docsTsv, lineNo, acl[i]);
        }
        consumer.accept(new Block(f[0], f[1], f[2], acls));
      }
    }
  }

  /** Every query of {@code queriesTsv}, in file order. */
  public static List<JoinQuery> queries(Path queriesTsv) throws IOException {
    List<JoinQuery> out = new ArrayList<>();
    int lineNo = 0;
    for (String line : Files.readAllLines(queriesTsv, StandardCharsets.UTF_8)) {
      lineNo++;
      String[] f = fields(queriesTsv, lineNo, line, 3);
      try {
        out.add(new JoinQuery(f[0].split(" "), integer(queriesTsv, lineNo, f[1]), integer(queriesTsv, lineNo, f[2])));
      } catch (IllegalArgumentException e) {
        throw new IOException(queriesTsv + ":" + lineNo + ": " + e.getMessage(), e);
      }
    }
    if (out.isEmpty()) {
      throw new IOException(queriesTsv + ": no queries");
    }
    return out;
  }

  private static String[] fields(Path file, int lineNo, String line, int expected) throws IOException {
    String[] f = line.split("\t", -1);
    if (f.length != expected) {
      throw new IOException(file + ":" + lineNo + ": " + f.length + " fields, expected " + expected);
    }
    return f;
  }

  private static int integer(Path file, int lineNo, String text) throws IOException {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IOException(file + ":" + lineNo + ": not an integer: '" + text + "'", e);
    }
  }
}
