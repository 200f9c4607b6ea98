package org.lucenerevisited.dvupdate;

import java.util.List;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;

/**
 * The study's update methods by name: reindex, numeric and binary on every version; soft (soft
 * deletes, Lucene 7.4+) and overlay (in-memory numeric updates, Lucene 7+), which an older version
 * refuses with an IllegalArgumentException naming the method and the version.
 */
final class Methods {

  static final List<String> NAMES = List.of("reindex", "numeric", "binary", "soft", "overlay");

  /** A method: how it updates, and how its searchers see the updates. */
  record Method(Update update, Reopener reopener) {}

  private Methods() {}

  /** The writer config of {@code method}: the indexer's analyzer and id codec, Lucene's defaults else. */
  static IndexWriterConfig config(String method, String idFormat) {
    IndexWriterConfig config = Analysis.writerConfig().setCodec(DvuSchema.codec(idFormat));
    return switch (check(method)) {
      case "soft" -> SoftUpdate.configure(config);
      case "overlay" -> Overlay.configure(config);
      default -> config;
    };
  }

  /** {@code method} on a writer opened with {@link #config}. */
  static Method open(String method, IndexWriter writer, DvuCorpus corpus, long overlayBudgetBytes) {
    return switch (check(method)) {
      case "reindex" -> new Method(new Reindex(writer, corpus), new NrtReopener(writer));
      case "numeric" -> new Method(new NumericUpdate(writer, corpus), new NrtReopener(writer));
      case "binary" -> new Method(new BinaryUpdate(writer, corpus), new NrtReopener(writer));
      case "soft" -> new Method(SoftUpdate.open(writer, corpus), new NrtReopener(writer));
      default -> Overlay.open(writer, corpus, overlayBudgetBytes);
    };
  }

  /** Whether {@code method}'s updates change lastmod (else it keeps its indexed value). */
  static boolean setsLastmod(String method) {
    return !check(method).equals("binary");
  }

  /** Whether {@code method}'s updates change title_dv. */
  static boolean setsTitle(String method) {
    return List.of("reindex", "binary", "soft").contains(check(method));
  }

  private static String check(String method) {
    if (!NAMES.contains(method)) {
      throw new IllegalArgumentException("no update method '" + method + "'; methods: " + NAMES);
    }
    return method;
  }
}
