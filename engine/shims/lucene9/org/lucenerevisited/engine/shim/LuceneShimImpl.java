package org.lucenerevisited.engine.shim;

import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;

/**
 * Lucene 9.x: a search stops counting at 1,000 hits unless told otherwise (the threshold is lifted, so
 * that the count is exact, as Solr's), through a collector manager, and stored fields are read through
 * {@code storedFields()}; score modes and the rest as 8.x ({@link ScoreModeShim}).
 */
public final class LuceneShimImpl extends ScoreModeShim {

  @Override
  public TopDocs topDocs(IndexSearcher searcher, Query query, int n) throws IOException {
    return searcher.search(query, new TopScoreDocCollectorManager(n, null, Integer.MAX_VALUE));
  }

  @Override
  public Document document(IndexReader reader, int doc) throws IOException {
    return reader.storedFields().document(doc);
  }
}
