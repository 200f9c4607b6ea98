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
 * Lucene 6.x: searching and stored fields as 7.x ({@link NeedsScoresShim}: an int total), and a weight
 * that has no boost of its own.
 */
public final class LuceneShimImpl extends NeedsScoresShim {

  @Override
  public Query docSetQuery(FixedBitSet[] sets) {
    return new BitSetsQuery(sets) {
      @Override
      public Weight createWeight(IndexSearcher searcher, boolean needsScores) {
        return new ConstantScoreWeight(this) {
          @Override
          public Scorer scorer(LeafReaderContext context) {
            return new ConstantScoreScorer(this, score(), docs(context));
          }
        };
      }
    };
  }
}
