package org.lucenerevisited.join;

import java.io.Closeable;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.util.Version;

/** Lucene 4 has no global-ordinals join in JoinUtil (it came in Lucene 5): {@code ordinals} is refused. */
final class OrdinalsJoin {

  static final boolean AVAILABLE = false;

  private OrdinalsJoin() {}

  static JoinContender open(IndexReader reader, Closeable owned) {
    throw new IllegalArgumentException("join contender 'ordinals' is not available on Lucene " + Version.LATEST);
  }
}
