package org.lucenerevisited.join;

import java.io.Closeable;
import java.io.IOException;

/**
 * One way of answering a {@link JoinQuery} (a Lucene join, or a real Solr query parser) on an open
 * index. {@link #search} is the timed request; {@link #answer} is its untimed, complete twin for the
 * correctness gate. Implementations are thread-safe: the load's workers share one instance.
 */
public interface JoinContender extends Closeable {

  /** The request as timed: the top {@code n} hits by score; returns the total hit count. */
  long search(JoinQuery query, int n) throws IOException;

  /** Every matching parent and the top {@code n}, for the correctness gate. */
  Answer answer(JoinQuery query, int n) throws IOException;
}
