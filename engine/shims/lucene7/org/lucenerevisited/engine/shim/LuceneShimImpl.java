package org.lucenerevisited.engine.shim;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.FixedBitSet;

/**
 * Lucene 7.x: searching and stored fields as 6.x ({@link NeedsScoresShim}: a long total), and a weight
 * that carries its boost and says whether a query cache may keep it.
 */
public final class LuceneShimImpl extends NeedsScoresShim {

  @Override
  public Query docSetQuery(FixedBitSet[] sets) {
    return new BitSetsQuery(sets) {
      @Override
      public Weight createWeight(IndexSearcher searcher, boolean needsScores, float boost) {
        return new ConstantScoreWeight(this, boost) {
          @Override
          public Scorer scorer(LeafReaderContext context) {
            return new ConstantScoreScorer(this, score(), docs(context));
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
