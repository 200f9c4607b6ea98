package org.lucenerevisited.join;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.lucenerevisited.engine.harness.Request;
import org.lucenerevisited.engine.harness.Table;

/**
 * One fork's view of the study: ONE contender on an index opened through a chosen directory kind,
 * and the corpus's queries. {@link #gate} is the correctness pass, {@link #request} the timed stream.
 */
public final class JoinBench implements Closeable {

  private final JoinQuery[] queries;
  private final JoinContender contender;

  /**
   * Opens {@code contender} on {@code index} (the Solr index for a {@code solr-} contender) through a
   * {@code directory} of kind mmap or nio, with the queries of {@code queriesTsv}; a Solr core gets the
   * {@code <query>} cache elements {@code solrCaches}.
   */
  public JoinBench(String index, String directory, String contender, String queriesTsv, String solrCaches)
      throws IOException {
    List<JoinQuery> read = JoinCorpus.queries(Path.of(queriesTsv));
    this.queries = read.toArray(new JoinQuery[0]);
    this.contender = Contenders.open(contender, Path.of(index), directory, solrCaches);
  }

  public int queryCount() {
    return queries.length;
  }

  /**
   * Every query's answer, one row per query: query (its index), total (hits), parents_sha256 (sha256
   * hex of the sorted matching parent ids joined by newlines) and top (the top {@code n} ids, best
   * first, joined by spaces).
   */
  public Table gate(int n) throws IOException {
    checkTopN(n);
    Table.Builder out = Table.builder().longColumn("query").longColumn("total").stringColumn("parents_sha256")
        .stringColumn("top");
    for (int i = 0; i < queries.length; i++) {
      Answer answer = contender.answer(queries[i], n);
      out.addRow(i, (long) answer.parents().length, sha256(String.join("\n", answer.parents())),
          String.join(" ", answer.top()));
    }
    return out.build();
  }

  /** Request i searches query i for its top {@code n} ({@code i < queryCount()}). */
  public Request request(int n) {
    checkTopN(n);
    return i -> contender.search(queries[i], n);
  }

  /** The OrdinalMap's build time of the {@code ordinals} contender; -1 for any other. */
  public long ordinalMapMillis() {
    return contender instanceof OrdinalMapBuild built ? built.ordinalMapMillis() : -1;
  }

  @Override
  public void close() throws IOException {
    contender.close();
  }

  private static void checkTopN(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("top n must be >= 1, got " + n);
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
