package org.lucenerevisited.engine.shim;

import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.FixedBitSet;

/**
 * Lucene 8.x: a search stops counting at 1,000 hits unless told otherwise (the threshold is lifted, so
 * that the count is exact, as Solr's), the total is a {@code TotalHits}, stored fields are read through
 * {@code IndexReader.document}, and collectors and weights take a score mode.
 */
public final class LuceneShimImpl extends LeafReaderShim {

  @Override
  public TopDocs topDocs(IndexSearcher searcher, Query query, int n) throws IOException {
    TopScoreDocCollector collector = TopScoreDocCollector.create(n, Integer.MAX_VALUE);
    searcher.search(query, collector);
    return collector.topDocs();
  }

  @Override
  public long totalHits(TopDocs top) {
    return top.totalHits.value;
  }

  @Override
  public Document document(IndexReader reader, int doc) throws IOException {
    return reader.document(doc);
  }

  @Override
  public FixedBitSet[] collectDocs(IndexSearcher searcher, Query query) throws IOException {
    FixedBitSet[] sets = SegmentBitSets.empty(searcher.getIndexReader());
    searcher.search(query, new SegmentBitSets(sets) {
      @Override
      public ScoreMode scoreMode() {
        return ScoreMode.COMPLETE_NO_SCORES;
      }
    });
    return sets;
  }

  @Override
  public Query docSetQuery(FixedBitSet[] sets) {
    return new BitSetsQuery(sets) {
      @Override
      public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        return new ConstantScoreWeight(this, boost) {
          @Override
          public Scorer scorer(LeafReaderContext context) {
            return new ConstantScoreScorer(this, score(), scoreMode, docs(context));
          }

          @Override
          public boolean isCacheable(LeafReaderContext context) {
            return false;
          }
        };
      }
    };
  }
}
