package org.lucenerevisited.join.solr;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.lucenerevisited.join.JoinContender;

/**
 * Entry points of the Solr side of the join study, which the study's generic code calls by reflection
 * (an engine built without Solr has none of these classes): {@link #index} builds a Solr index of a
 * corpus, {@link #open} a contender on it.
 *
 * <p>A Solr core holds its index's write lock while open, so two cores cannot share an index in one
 * JVM: contenders opened on the same index share one started core (reference-counted), which the last
 * one to close shuts down.
 */
public final class SolrContenders {

  private static final Map<Path, Shared> OPEN = new HashMap<>();

  private SolrContenders() {}

  /**
   * Indexes {@code docsTsv} (the corpus format of the join study) into a new Solr home at
   * {@code solrIndex}, {@code batch} blocks per update request, merged to one segment.
   */
  public static void index(Path docsTsv, Path solrIndex, int batch) throws IOException {
    SolrHome home = new SolrHome(solrIndex);
    if (home.index().toFile().exists()) {
      throw new IllegalArgumentException("a Solr index already exists at " + home.index());
    }
    // Indexing reads nothing back: no caches.
    try (SolrNode node = SolrNode.start(home, "mmap", "")) {
      SolrIndexer.index(docsTsv, node, batch);
    }
  }

  /**
   * A contender ({@code solr-parent}, {@code solr-join}, {@code solr-join-none} from 7.x,
   * {@code solr-topdv} from 8.6) on the Solr index {@link #index} wrote at {@code solrIndex}, its core
   * reading through {@code directory} ({@code mmap} or {@code nio}) with the {@code <query>} cache
   * elements {@code caches}.
   */
  public static JoinContender open(String name, Path solrIndex, String directory, String caches)
      throws IOException {
    SolrJoin join = SolrJoin.named(name);
    SolrHome.directoryFactory(directory);
    Path key = solrIndex.toAbsolutePath().normalize();
    synchronized (OPEN) {
      Shared shared = OPEN.get(key);
      if (shared == null) {
        SolrHome home = new SolrHome(key);
        if (!home.index().toFile().isDirectory()) {
          throw new IllegalArgumentException("no Solr index at " + home.index() + " (SolrContenders.index writes one)");
        }
        shared = new Shared(SolrNode.start(home, directory, caches), directory + caches);
        OPEN.put(key, shared);
      } else if (!shared.setup.equals(directory + caches)) {
        throw new IllegalStateException("the Solr core on " + key + " is open with another directory or caches; "
            + "close its contenders before opening it with " + directory);
      }
      shared.holders++;
      return new SolrJoinContender(shared.node, join, () -> release(key));
    }
  }

  private static void release(Path key) {
    synchronized (OPEN) {
      Shared shared = OPEN.get(key);
      if (shared != null && --shared.holders == 0) {
        OPEN.remove(key);
        shared.node.close();
      }
    }
  }

  private static final class Shared {
    final SolrNode node;
    /** The directory kind and caches the core was started with. */
    final String setup;
    int holders;

    Shared(SolrNode node, String setup) {
      this.node = node;
      this.setup = setup;
    }
  }
}
