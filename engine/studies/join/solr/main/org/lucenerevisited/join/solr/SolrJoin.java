package org.lucenerevisited.join.solr;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.lucenerevisited.join.JoinQuery;

/**
 * The Solr query parsers compared, as the filter query each puts around the children's acl range. The
 * block join matches a child's own block (children precede their parent, {@code kind:body} marks
 * parents); the query-time joins match every parent whose {@code join_key} equals a matching child's
 * {@code join_id}, whatever block it is in.
 */
enum SolrJoin {
  /** ToParentBlockJoinQuery under Solr's parser. */
  PARENT("solr-parent", 4, 0, "{!parent which=kind:body}"),
  /** Solr's own JoinQuery: walks the from-field's terms, intersecting each one's docs with the range. */
  JOIN("solr-join", 4, 0, "{!join from=join_id to=join_key}"),
  /** The score= form routes to Lucene's JoinUtil (Solr 5.4+), here without scores. */
  JOIN_NONE("solr-join-none", 5, 4, "{!join from=join_id to=join_key score=none}"),
  /** Joins on the top-level (whole-index) ordinals of the two fields' DocValues (from 8.6 on). */
  TOP_DV("solr-topdv", 8, 6, "{!join from=join_id to=join_key method=topLevelDV}");

  final String contender;
  private final int sinceMajor;
  private final int sinceMinor;
  private final String localParams;

  SolrJoin(String contender, int sinceMajor, int sinceMinor, String localParams) {
    this.contender = contender;
    this.sinceMajor = sinceMajor;
    this.sinceMinor = sinceMinor;
    this.localParams = localParams;
  }

  /** The {@code fq} of a query, e.g. {@code {!parent which=kind:body}acl:[1303 TO 1309]}. */
  String filter(JoinQuery query) {
    return localParams + query.aclQuery();
  }

  boolean inThisRelease() {
    return SolrRelease.atLeast(sinceMajor, sinceMinor);
  }

  /** The join a contender name stands for; refuses names unknown or absent from this Solr release. */
  static SolrJoin named(String contender) {
    for (SolrJoin join : values()) {
      if (join.contender.equals(contender)) {
        if (!join.inThisRelease()) {
          throw new IllegalArgumentException(contender + " needs Solr " + join.sinceMajor + "." + join.sinceMinor
              + " or later; this engine carries Solr " + SolrRelease.VERSION);
        }
        return join;
      }
    }
    throw new IllegalArgumentException("unknown Solr contender " + contender + " (Solr " + SolrRelease.VERSION
        + " has: " + Arrays.stream(values()).filter(SolrJoin::inThisRelease).map(j -> j.contender)
            .collect(Collectors.joining(", ")) + ")");
  }
}
