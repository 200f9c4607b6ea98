package org.lucenerevisited.pk;

import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.util.BytesRef;

/**
 * Resolves a sorted batch of primary keys to global docIDs. One instance per thread: it owns
 * per-segment enums that are reused across batches and are not thread-safe.
 */
abstract class PkResolver {

  /** Sets out[i] to the live global docID holding keys[i], or -1. */
  abstract void resolve(BytesRef[] keys, int[] out) throws IOException;

  /** A resolver for {@code contender} over {@code reader}; {@code map} is used by GlobalPkMap. */
  static PkResolver create(String contender, IndexReader reader, GlobalPkMap map)
      throws IOException {
    if (PkContenders.GLOBAL_MAP.equals(contender)) {
      return new MapResolver(map);
    }
    return new SegmentSeekResolver(reader, PkContenders.isSeekCeil(contender));
  }

  /** Runs every batch once; returns the number of hits, which keeps the work observable. */
  final long resolveAll(PkBatches batches, int[] scratch) throws IOException {
    long hits = 0;
    for (BytesRef[] batch : batches.keys) {
      hits += resolveCounting(batch, scratch);
    }
    return hits;
  }

  /** Resolves one batch into {@code scratch}; returns its hits. */
  final long resolveCounting(BytesRef[] batch, int[] scratch) throws IOException {
    resolve(batch, scratch);
    long hits = 0;
    for (int i = 0; i < batch.length; i++) {
      if (scratch[i] >= 0) {
        hits++;
      }
    }
    return hits;
  }

  private static final class MapResolver extends PkResolver {
    private final GlobalPkMap map;

    MapResolver(GlobalPkMap map) {
      this.map = map;
    }

    @Override
    void resolve(BytesRef[] keys, int[] out) {
      for (int i = 0; i < keys.length; i++) {
        out[i] = map.get(keys[i]);
      }
    }
  }
}
