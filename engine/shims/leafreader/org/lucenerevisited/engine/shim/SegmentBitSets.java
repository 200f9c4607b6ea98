package org.lucenerevisited.engine.shim;

import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.util.FixedBitSet;

/**
 * Collects the docs a query matches into one {@link FixedBitSet} per segment, by leaf ord. How a
 * collector says it needs no scores changed in 8 ({@code needsScores} became {@code scoreMode}), so
 * each major's shim subclasses it with that one method.
 */
abstract class SegmentBitSets extends SimpleCollector {

  private final FixedBitSet[] sets;
  private FixedBitSet set;

  SegmentBitSets(FixedBitSet[] sets) {
    this.sets = sets;
  }

  /** One empty set per segment of {@code reader}, sized to its maxDoc. */
  static FixedBitSet[] empty(IndexReader reader) {
    List<LeafReaderContext> leaves = reader.leaves();
    FixedBitSet[] sets = new FixedBitSet[leaves.size()];
    for (LeafReaderContext leaf : leaves) {
      sets[leaf.ord] = new FixedBitSet(leaf.reader().maxDoc());
    }
    return sets;
  }

  @Override
  protected void doSetNextReader(LeafReaderContext context) {
    set = sets[context.ord];
  }

  @Override
  public void collect(int doc) {
    set.set(doc);
  }
}
