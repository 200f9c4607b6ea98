package org.lucenerevisited.dvjump;

import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import org.apache.lucene.index.LeafReader;

/**
 * How a contender reads DocValues, by name. Each kind is a {@link Columns.Source} class that only
 * some majors compile (a study shim), found by name so that this class compiles on all of them:
 * <ul>
 *   <li>{@code native}: the version's own reader, read the way Solr 7 reads it: random access on
 *       Lucene 6; on 7 and later a forward-only iterator per field and request (faceting, grouping,
 *       sorting), started over whenever the request goes back to an earlier document, and one per
 *       document and field where Solr opens one per document (export, retrieval);
 *   <li>{@code jump}: search-time jump tables over a Lucene 7.0-format index (Lucene 8 only).
 * </ul>
 */
public final class DvjAccess {

  private static final Map<String, String> KINDS = Map.of(
      "native", "org.lucenerevisited.dvjump.NativeColumns",
      "jump", "org.lucenerevisited.dvjump.jump.JumpColumns");

  private DvjAccess() {}

  public static Columns.Source open(String kind, LeafReader leaf) throws Exception {
    String name = KINDS.get(kind);
    if (name == null) {
      throw new IllegalArgumentException("unknown DocValues access '" + kind + "' (known: " + KINDS.keySet() + ")");
    }
    Class<?> type;
    try {
      type = Class.forName(name);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("DocValues access '" + kind + "' is not built for this Lucene version");
    }
    try {
      return (Columns.Source) type.getConstructor(LeafReader.class).newInstance(leaf);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
