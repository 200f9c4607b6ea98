package org.lucenerevisited.join;

import java.util.Arrays;

/**
 * The seed's request: {@code text_all:(t1 OR t2 OR ...)} over parent documents, filtered to the parents
 * of children whose {@code acl} lies in {@code [aclLo, aclHi]} (both ends inclusive), top hits by score.
 */
public record JoinQuery(String[] terms, int aclLo, int aclHi) {

  public JoinQuery {
    if (terms.length == 0) {
      throw new IllegalArgumentException("a query needs at least one text term");
    }
    if (aclLo > aclHi) {
      throw new IllegalArgumentException("empty acl range [" + aclLo + " TO " + aclHi + "]");
    }
    terms = terms.clone();
  }

  /** Solr's syntax of the text part, e.g. {@code text_all:(patient OR autumn OR helen)}. */
  public String textQuery() {
    return "text_all:(" + String.join(" OR ", terms) + ")";
  }

  /** Solr's syntax of the children's range, e.g. {@code acl:[1303 TO 1309]}. */
  public String aclQuery() {
    return "acl:[" + aclLo + " TO " + aclHi + "]";
  }

  @Override
  public String toString() {
    return textQuery() + " | " + aclQuery();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JoinQuery q && Arrays.equals(terms, q.terms) && aclLo == q.aclLo && aclHi == q.aclHi;
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(terms) + aclLo) + aclHi;
  }
}
