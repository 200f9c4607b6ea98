package org.lucenerevisited.join.solr;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.embedded.EmbeddedSolrServer;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.core.CoreContainer;

/**
 * The core of a {@link SolrHome}, started in this JVM: a CoreContainer and an EmbeddedSolrServer on it,
 * which hands requests to the core's handlers directly (no HTTP; thread-safe). Closing shuts the
 * container down, which closes the core and its index.
 */
final class SolrNode implements Closeable {

  private final CoreContainer container;
  private final EmbeddedSolrServer server;

  private SolrNode(CoreContainer container) {
    this.container = container;
    this.server = new EmbeddedSolrServer(container, SolrHome.CORE);
  }

  /**
   * Writes the home's configuration for {@code directory} ({@code mmap} or {@code nio}) and
   * {@code caches} ({@link SolrHome#write}) and starts it.
   */
  static SolrNode start(SolrHome home, String directory, String caches) throws IOException {
    home.write(directory, caches);
    CoreContainer container = CoreContainers.load(home.root());
    // A core that fails to start leaves the container up without it: surface why.
    Map<String, CoreContainer.CoreLoadFailure> failures = container.getCoreInitFailures();
    if (!failures.isEmpty()) {
      container.shutdown();
      CoreContainer.CoreLoadFailure failure = failures.values().iterator().next();
      throw new IOException("Solr core in " + home.root() + " failed to start", failure.exception);
    }
    return new SolrNode(container);
  }

  QueryResponse query(SolrParams params) throws IOException {
    try {
      return server.query(params);
    } catch (SolrServerException e) {
      throw new IOException("Solr query failed: " + params, e);
    }
  }

  void add(Collection<SolrInputDocument> documents) throws IOException {
    try {
      server.add(documents);
    } catch (SolrServerException e) {
      throw new IOException("Solr refused a batch of " + documents.size() + " documents", e);
    }
  }

  /** Commits, then merges the index down to {@code segments} segments and opens a searcher on it. */
  void commitAndMerge(int segments) throws IOException {
    try {
      server.commit(true, true);
      server.optimize(true, true, segments);
    } catch (SolrServerException e) {
      throw new IOException("Solr commit or merge failed", e);
    }
  }

  @Override
  public void close() {
    container.shutdown();
  }
}
