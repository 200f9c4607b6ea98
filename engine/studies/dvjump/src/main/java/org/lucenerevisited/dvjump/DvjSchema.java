package org.lucenerevisited.dvjump;

import java.util.List;
import java.util.Set;

/**
 * The fields of the web-archive corpus (data-recipes/dvjump_corpus.py) and how they are indexed:
 * every field but {@code text} as single-valued DocValues only (SORTED for strings, NUMERIC for
 * numbers), as the seed's netarchive schema keeps them; {@code text} indexed with term frequencies
 * and without norms, so that a term's score depends on its frequency alone and every Lucene
 * version ranks alike.
 */
public final class DvjSchema {

  public static final String TEXT = "text";
  public static final Set<String> NUMERIC = Set.of("crawl_year", "crawl_date", "status_code", "content_length");
  public static final Set<String> SORTED = Set.of("id", "source_file_s", "url_norm", "host", "domain",
      "public_suffix", "content_type_norm", "content_type_served", "content_type_ext", "content_language");

  /** The seed's facet fields: domain, crawl_year, public_suffix, content_type_norm, status_code, host. */
  public static final List<String> FACETS = List.of("domain", "crawl_year", "public_suffix", "content_type_norm",
      "status_code", "host");
  /** The seed's grouping field, about 83% unique. */
  public static final String GROUP = "url_norm";
  /** The seed's sort field, heavy-tailed. */
  public static final String SORT = "content_length";
  /** The seed's nine retrieved fields. */
  public static final List<String> RETRIEVE = List.of("id", "source_file_s", "url_norm", "host", "domain",
      "content_type_served", "content_length", "crawl_date", "content_language");
  /** The seed's export: these four fields, sorted by {@link #EXPORT_SORT} descending. */
  public static final List<String> EXPORT = List.of("content_type_ext", "content_type_served", "crawl_date",
      "content_length");
  public static final String EXPORT_SORT = "id";
  /** The field whose distinct values among the hits the combined request counts (cardinality). */
  public static final String CARDINALITY = "domain";

  private DvjSchema() {}

  public static boolean numeric(String field) {
    if (NUMERIC.contains(field)) {
      return true;
    }
    if (SORTED.contains(field)) {
      return false;
    }
    throw new IllegalArgumentException("not a DocValues field of the corpus: " + field);
  }
}
