package org.lucenerevisited.join;

import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.search.Query;

/** The children's int field, Lucene 7+: an IntPoint (a BKD tree) and its range query. */
final class Acl {

  private Acl() {}

  static Field field(int value) {
    return new IntPoint(JoinSchema.ACL, value);
  }

  /** Both ends inclusive. */
  static Query range(String field, int lo, int hi) {
    return IntPoint.newRangeQuery(field, lo, hi);
  }
}
