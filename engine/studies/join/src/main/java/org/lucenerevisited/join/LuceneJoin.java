package org.lucenerevisited.join;

import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * A contender on Lucene's own API: the seed's request is the scored text query with {@link #join} as
 * a non-scoring filter, top n by score. Like the seed's Solr request ({@code fl=id}, an exact
 * {@code numFound}) it counts every hit and loads the stored id of each of the top n. The searcher
 * has no query cache (the seed disabled Solr's caches).
 */
abstract class LuceneJoin implements JoinContender {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;

  final IndexReader reader;
  final IndexSearcher searcher;
  /** What {@link #close} releases: the reader and directory the contender opened, or null. */
  private final Closeable owned;

  LuceneJoin(IndexReader reader, Closeable owned) {
    this.reader = reader;
    this.searcher = SHIM.newSearcher(reader);
    this.owned = owned;
  }

  /** The parents that have a child with an acl in the query's range, as a filter. */
  abstract Query join(JoinQuery query) throws IOException;

  private Query request(JoinQuery query) throws IOException {
    return Queries.filtered(Queries.text(JoinSchema.TEXT, query.terms()), join(query));
  }

  @Override
  public long search(JoinQuery query, int n) throws IOException {
    TopDocs top = SHIM.topDocs(searcher, request(query), n);
    for (ScoreDoc hit : top.scoreDocs) {
      JoinSchema.id(searcher, hit.doc);
    }
    return SHIM.totalHits(top);
  }

  @Override
  public Answer answer(JoinQuery query, int n) throws IOException {
    Query request = request(query);
    TopDocs hits = SHIM.topDocs(searcher, request, n);
    long total = SHIM.totalHits(hits);
    if (total > hits.scoreDocs.length) {
      hits = SHIM.topDocs(searcher, request, Math.toIntExact(total));
    }
    String[] all = new String[hits.scoreDocs.length];
    for (int i = 0; i < all.length; i++) {
      all[i] = JoinSchema.id(searcher, hits.scoreDocs[i].doc);
    }
    String[] top = Arrays.copyOf(all, Math.min(n, all.length));
    Arrays.sort(all);
    return new Answer(all, top);
  }

  @Override
  public void close() throws IOException {
    if (owned != null) {
      owned.close();
    }
  }
}
