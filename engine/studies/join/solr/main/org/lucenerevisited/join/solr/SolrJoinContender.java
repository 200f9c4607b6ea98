package org.lucenerevisited.join.solr;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.lucenerevisited.join.Answer;
import org.lucenerevisited.join.JoinContender;
import org.lucenerevisited.join.JoinQuery;

/**
 * A {@link JoinContender} on a Solr core: the seed's request, {@code q=text_all:(...)} scored and
 * {@code fq=} the join of the acl range, {@code fl=id,score&sort=score desc&rows=n} (Solr breaks score
 * ties by index order). Closing releases this contender's hold on the shared core.
 */
final class SolrJoinContender implements JoinContender {

  private final SolrNode node;
  private final SolrJoin join;
  private final Runnable release;
  private final AtomicBoolean closed = new AtomicBoolean();

  SolrJoinContender(SolrNode node, SolrJoin join, Runnable release) {
    this.node = node;
    this.join = join;
    this.release = release;
  }

  @Override
  public long search(JoinQuery query, int n) throws IOException {
    return top(query, n).getNumFound();
  }

  @Override
  public Answer answer(JoinQuery query, int n) throws IOException {
    SolrDocumentList top = top(query, n);
    SolrDocumentList all = top.getNumFound() <= top.size() ? top : top(query, Math.toIntExact(top.getNumFound()));
    String[] parents = ids(all);
    Arrays.sort(parents);
    return new Answer(parents, ids(top));
  }

  private SolrDocumentList top(JoinQuery query, int n) throws IOException {
    ModifiableSolrParams params = new ModifiableSolrParams();
    params.set("q", query.textQuery());
    params.set("fq", join.filter(query));
    params.set("fl", "id,score");
    params.set("sort", "score desc");
    params.set("rows", n);
    return node.query(params).getResults();
  }

  private static String[] ids(SolrDocumentList docs) {
    return docs.stream().map(d -> (String) d.getFirstValue("id")).toArray(String[]::new);
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      release.run();
    }
  }

  @Override
  public String toString() {
    return join.contender + " (Solr " + SolrRelease.VERSION + ")";
  }
}
