package org.lucenerevisited.dvupdate;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.harness.Digest;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * Checks a method's answers, untimed, in one thread: a fixed list of updates (rows drawn from a
 * subset of a quarter as many rows as updates, so later updates of a row must win) in equal batches,
 * each followed by a reopen. After each
 * reopen, every query's top hits sorted by lastmod, read through the method's reader, must equal the
 * top hits computed by brute force: every live document of the query found through the postings,
 * its expected lastmod the last update's value for an updated row, else the corpus's. At the end,
 * lastmod and title_dv of every updated row, read through the method's final reader, must be the
 * values this method's updates leave (a method that does not update a field leaves it as indexed).
 *
 * <p>One row per check: step ("reopen-j" or "final"), item (the query, or the field), expected and
 * actual (checksums as hex), match (1 if equal).
 */
final class Verifier {

  private final DvuSpec spec;
  private final DvuCorpus corpus;
  /** The last update number of each updated row, by row. */
  private final TreeMap<Integer, Long> lastUpdate = new TreeMap<>();
  /**
   * Queries checked at each reopen, the first of the spec's: a brute-force answer reads the stored row
   * of every match, which on a large corpus costs seconds for all of them.
   */
  static final int CHECKED_QUERIES = 8;

  Verifier(DvuSpec spec, DvuCorpus corpus) {
    this.spec = spec;
    this.corpus = corpus;
  }

  static Table.Builder columns() {
    return Table.builder().stringColumn("step").stringColumn("item").stringColumn("expected")
        .stringColumn("actual").longColumn("match");
  }

  void run(UpdateSession session, Table.Builder out) throws IOException {
    if (spec.verifyReopens < 1 || spec.verifyUpdates < spec.verifyReopens) {
      throw new IllegalArgumentException("verify needs 1 <= verifyReopens <= verifyUpdates, got "
          + spec.verifyReopens + " reopens of " + spec.verifyUpdates + " updates");
    }
    int rows = corpus.rows();
    int subset = Math.max(1, Math.min(rows, spec.verifyUpdates / 4));
    IndexReader reader = session.open();
    try {
      for (int batch = 0; batch < spec.verifyReopens; batch++) {
        long from = (long) spec.verifyUpdates * batch / spec.verifyReopens;
        long to = (long) spec.verifyUpdates * (batch + 1) / spec.verifyReopens;
        for (long k = from; k < to; k++) {
          int row = Targets.verifyRow(spec.seed, k, rows, subset);
          session.method.update().apply(k, row);
          lastUpdate.put(row, k);
        }
        IndexReader next = session.method.reopener().reopen(reader).reader();
        if (next != null) {
          reader.decRef();
          reader = next;
        }
        for (String query : Arrays.copyOf(spec.queries, Math.min(CHECKED_QUERIES, spec.queries.length))) {
          check(out, "reopen-" + (batch + 1), query, expectedTop(reader, query), actualTop(reader, query));
        }
      }
      finalValues(reader, out);
    } finally {
      reader.decRef();
    }
  }

  private static void check(Table.Builder out, String step, String item, Digest expected, Digest actual) {
    out.addRow(step, item, expected.hex(), actual.hex(), expected.hex().equals(actual.hex()) ? 1L : 0L);
  }

  private long expectedLastmod(int row) {
    Long k = lastUpdate.get(row);
    return k != null && Methods.setsLastmod(spec.method) ? DvuSchema.value(k) : corpus.lastmod(row);
  }

  private String expectedTitle(int row) {
    Long k = lastUpdate.get(row);
    String title = corpus.title(row);
    return k != null && Methods.setsTitle(spec.method) ? DvuSchema.title(title, k) : title;
  }

  /** The method's answer: rows and sort values of the top hits, then the number of live matches. */
  private Digest actualTop(IndexReader reader, String query) throws IOException {
    IndexSearcher searcher = LuceneShim.INSTANCE.newSearcher(reader);
    Digest digest = new Digest();
    TermQuery q = new TermQuery(new Term(DvuSchema.BODY, query));
    for (ScoreDoc hit : searcher.search(q, spec.topN, DvuSchema.BY_LASTMOD).scoreDocs) {
      digest.add(DvuSchema.row(reader, hit.doc)).add((Long) ((FieldDoc) hit).fields[0]);
    }
    return digest.add(liveMatches(reader, query).size());
  }

  /**
   * The brute-force answer: every live match, by its row's expected lastmod, then the number of
   * distinct rows matched (it differs from the live matches if a replaced document stayed live).
   */
  private Digest expectedTop(IndexReader reader, String query) throws IOException {
    List<Integer> matches = new ArrayList<>(liveMatches(reader, query).stream().distinct().toList());
    matches.sort(Comparator.comparingLong((Integer row) -> expectedLastmod(row)).reversed());
    Digest digest = new Digest();
    for (int row : matches.subList(0, Math.min(spec.topN, matches.size()))) {
      digest.add(row).add(expectedLastmod(row));
    }
    return digest.add(matches.size());
  }

  /** The rows of the live documents whose body has {@code query}, through the postings. */
  private static List<Integer> liveMatches(IndexReader reader, String query) throws IOException {
    List<Integer> rows = new ArrayList<>();
    forEachLive(reader, DvuSchema.BODY, query, (leaf, doc) -> {
      rows.add(DvuSchema.row(reader, leaf.docBase() + doc));
      return true;
    });
    return rows;
  }

  /** lastmod and title_dv of every updated row, in row order, read at its live document. */
  private void finalValues(IndexReader reader, Table.Builder out) throws IOException {
    Digest expectedLastmod = new Digest();
    Digest actualLastmod = new Digest();
    Digest expectedTitle = new Digest();
    Digest actualTitle = new Digest();
    for (int row : lastUpdate.keySet()) {
      expectedLastmod.add(row).add(expectedLastmod(row));
      expectedTitle.add(row).add(new BytesRef(expectedTitle(row)));
      actualLastmod.add(row);
      actualTitle.add(row);
      Located at = liveDocument(reader, corpus.id(row));
      if (at == null) {
        actualLastmod.add(Long.MIN_VALUE);
        actualTitle.add((BytesRef) null);
        continue;
      }
      actualLastmod.add(DocValuesAt.numeric(at.leaf(), DvuSchema.LASTMOD, at.doc()));
      actualTitle.add(DocValuesAt.binary(at.leaf(), DvuSchema.TITLE_DV, at.doc()));
    }
    check(out, "final", DvuSchema.LASTMOD, expectedLastmod, actualLastmod);
    check(out, "final", DvuSchema.TITLE_DV, expectedTitle, actualTitle);
  }

  /** A document of a leaf. */
  private record Located(IndexReader leaf, int doc) {}

  /** The live document with {@code id}, or null if none. */
  private static Located liveDocument(IndexReader reader, String id) throws IOException {
    Located[] found = new Located[1];
    forEachLive(reader, DvuSchema.ID, id, (leaf, doc) -> {
      found[0] = new Located(leaf.reader(), doc);
      return false;
    });
    return found[0];
  }

  /** Receives a live document of a leaf; returns whether to go on. */
  private interface LiveDoc {
    boolean visit(LuceneShim.Leaf leaf, int doc) throws IOException;
  }

  /** Each live document of {@code field:term}, leaf by leaf, until {@code visitor} says stop. */
  private static void forEachLive(IndexReader reader, String field, String term, LiveDoc visitor)
      throws IOException {
    BytesRef bytes = new BytesRef(term);
    for (LuceneShim.Leaf leaf : LuceneShim.INSTANCE.leaves(reader)) {
      TermsEnum terms = LuceneShim.INSTANCE.termsEnum(leaf.reader(), field);
      if (terms == null || !terms.seekExact(bytes)) {
        continue;
      }
      Bits live = LuceneShim.INSTANCE.liveDocs(leaf.reader());
      DocIdSetIterator docs = LuceneShim.INSTANCE.postings(terms, null);
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if ((live == null || live.get(doc)) && !visitor.visit(leaf, doc)) {
          return;
        }
      }
    }
  }
}
