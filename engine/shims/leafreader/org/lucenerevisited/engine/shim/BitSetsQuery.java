package org.lucenerevisited.engine.shim;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.FixedBitSet;

/**
 * A query over fixed sets of docs, one per segment by leaf ord. Its weight changed with every major
 * (a boost from 7, a score mode from 8, a scorer supplier in 10), so each major's shim subclasses it
 * with {@code createWeight}; identity equality keeps two requests' sets apart.
 */
abstract class BitSetsQuery extends Query {

  private final FixedBitSet[] sets;

  BitSetsQuery(FixedBitSet[] sets) {
    this.sets = sets;
  }

  /** The docs of the segment {@code context}. */
  final DocIdSetIterator docs(LeafReaderContext context) {
    FixedBitSet set = sets[context.ord];
    return new BitSetIterator(set, set.cardinality());
  }

  @Override
  public String toString(String field) {
    return "BitSetsQuery";
  }

  @Override
  public boolean equals(Object other) {
    return this == other;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(this);
  }
}
