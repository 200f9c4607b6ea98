package org.lucenerevisited.dvupdate;

import java.util.List;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;

/**
 * The study's update methods by name: reindex, numeric, binary and two-fields (numeric and binary
 * together) on every version; soft (soft
 * deletes, Lucene 7.4+) and ram-buffer (the seed's in-memory numeric updates, Lucene 7+); and
 * overlays-N, numeric updates with Lucene's own DocValues overlays, at most N per field (10.6+, see
 * {@link DocValuesOverlays}). An older version refuses a method with an IllegalArgumentException
 * naming the method and the version.
 */
final class Methods {

  static final List<String> NAMES = List.of("reindex", "numeric", "binary", "two-fields", "soft", "ram-buffer");
  private static final String OVERLAYS = "overlays-";

  /** A method: how it updates, and how its searchers see the updates. */
  record Method(Update update, Reopener reopener) {}

  private Methods() {}

  /** The writer config of {@code method}: the indexer's analyzer and id codec, Lucene's defaults else. */
  static IndexWriterConfig config(String method, String idFormat) {
    IndexWriterConfig config = Analysis.writerConfig().setCodec(DvuSchema.codec(idFormat));
    int overlays = overlays(method);
    if (overlays > 0) {
      return DocValuesOverlays.configure(config, overlays);
    }
    return switch (method) {
      case "soft" -> SoftUpdate.configure(config);
      case "ram-buffer" -> RamBuffer.configure(config);
      default -> config;
    };
  }

  /** {@code method} on a writer opened with {@link #config}. */
  static Method open(String method, IndexWriter writer, DvuCorpus corpus, long ramBufferBudgetBytes) {
    if (overlays(method) > 0) {
      return new Method(new NumericUpdate(writer, corpus), new NrtReopener(writer));
    }
    return switch (method) {
      case "reindex" -> new Method(new Reindex(writer, corpus), new NrtReopener(writer));
      case "numeric" -> new Method(new NumericUpdate(writer, corpus), new NrtReopener(writer));
      case "binary" -> new Method(new BinaryUpdate(writer, corpus), new NrtReopener(writer));
      case "two-fields" -> new Method(both(new NumericUpdate(writer, corpus), new BinaryUpdate(writer, corpus)),
          new NrtReopener(writer));
      case "soft" -> new Method(SoftUpdate.open(writer, corpus), new NrtReopener(writer));
      default -> RamBuffer.open(writer, corpus, ramBufferBudgetBytes);
    };
  }

  /**
   * Both updates of each document, numeric then binary: the next reopen rewrites both fields of every
   * segment holding an updated document, the cost the seed expected to multiply with the fields.
   */
  private static Update both(Update first, Update second) {
    return (k, row) -> {
      first.apply(k, row);
      second.apply(k, row);
    };
  }

  /** Whether {@code method}'s updates change lastmod (else it keeps its indexed value). */
  static boolean setsLastmod(String method) {
    return overlays(method) > 0 || !method.equals("binary");
  }

  /** Whether {@code method}'s updates change title_dv. */
  static boolean setsTitle(String method) {
    return overlays(method) == 0 && List.of("reindex", "binary", "two-fields", "soft").contains(method);
  }

  /** N of overlays-N; 0 for the other methods. Throws for a name that is no method. */
  static int overlays(String method) {
    if (method.startsWith(OVERLAYS)) {
      try {
        int n = Integer.parseInt(method.substring(OVERLAYS.length()));
        if (n > 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // falls through to the error below
      }
    } else if (NAMES.contains(method)) {
      return 0;
    }
    throw new IllegalArgumentException("no update method '" + method + "'; methods: " + NAMES
        + " and " + OVERLAYS + "N for N >= 1");
  }
}
