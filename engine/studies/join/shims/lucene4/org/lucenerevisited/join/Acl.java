package org.lucenerevisited.join;

import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntField;
import org.apache.lucene.search.NumericRangeQuery;
import org.apache.lucene.search.Query;

/** The children's int field, Lucene 4: a trie-encoded IntField and its NumericRangeQuery (precision step 4). */
final class Acl {

  private Acl() {}

  static Field field(int value) {
    return new IntField(JoinSchema.ACL, value, Field.Store.NO);
  }

  /** Both ends inclusive. */
  static Query range(String field, int lo, int hi) {
    return NumericRangeQuery.newIntRange(field, lo, hi, true, true);
  }
}
