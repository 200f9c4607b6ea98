package org.lucenerevisited.engine.shim;

import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;

/**
 * Lucene 8.x: a search stops counting at 1,000 hits unless told otherwise (the threshold is lifted, so
 * that the count is exact, as Solr's), and stored fields are read through {@code
 * IndexReader.document}; score modes and the rest as 9.x ({@link ScoreModeShim}).
 */
public final class LuceneShimImpl extends ScoreModeShim {

  @Override
  public TopDocs topDocs(IndexSearcher searcher, Query query, int n) throws IOException {
    TopScoreDocCollector collector = TopScoreDocCollector.create(n, Integer.MAX_VALUE);
    searcher.search(query, collector);
    return collector.topDocs();
  }

  @Override
  public Document document(IndexReader reader, int doc) throws IOException {
    return reader.document(doc);
  }
}
