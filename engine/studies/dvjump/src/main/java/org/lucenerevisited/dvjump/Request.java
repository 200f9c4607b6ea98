package org.lucenerevisited.dvjump;

import java.io.IOException;
import java.util.List;
import org.lucenerevisited.engine.harness.Digest;

/**
 * One of the seed's request types, run on a query's matches with one request's columns. Returns a
 * checksum of its answer ({@link Digest}): contenders must agree on it before their timings count.
 */
public interface Request {

  long run(Matches hits, Columns columns) throws IOException;

  /** Request sizes: rows retrieved or sorted, facet values and groups returned (the seed: 20 each). */
  record Limits(int rows, int facets, int groups) {}

  /**
   * The request called {@code name}: search, facet, group, sort, retrieve, export or combined; with
   * {@code @N} (e.g. {@code facet@100}), the same with its size set to N: the rows of sort and retrieve,
   * the values per facet field, the groups, or all three for combined.
   */
  static Request named(String name, Limits limits) {
    int at = name.indexOf('@');
    if (at >= 0) {
      int n;
      try {
        n = Integer.parseInt(name.substring(at + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("workload '" + name + "': the size after @ is not a number");
      }
      if (n < 1) {
        throw new IllegalArgumentException("workload '" + name + "': the size after @ must be at least 1");
      }
      return named(name.substring(0, at), new Limits(n, n, n));
    }
    return switch (name) {
      case "search" -> (hits, columns) -> hits.size();
      case "facet" -> new FacetRequest(DvjSchema.FACETS, limits.facets());
      case "group" -> new GroupRequest(DvjSchema.GROUP, limits.groups());
      case "sort" -> new SortRequest(DvjSchema.SORT, limits.rows());
      case "retrieve" -> new RetrieveRequest(DvjSchema.RETRIEVE, limits.rows());
      case "export" -> new ExportRequest(DvjSchema.EXPORT_SORT, DvjSchema.EXPORT);
      case "combined" -> new CombinedRequest(limits);
      default -> throw new IllegalArgumentException("unknown workload '" + name + "' (known: " + NAMES + ")");
    };
  }

  List<String> NAMES = List.of("search", "facet", "group", "sort", "retrieve", "export", "combined");
}
