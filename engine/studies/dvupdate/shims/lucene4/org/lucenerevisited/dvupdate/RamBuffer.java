package org.lucenerevisited.dvupdate;

import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.util.Version;

/**
 * The RAM buffer wraps each leaf's DocValues iterator (Lucene 7 and later); Lucene 4's random-access
 * DocValues are not wrapped here: this version refuses the method.
 */
final class RamBuffer {

  private RamBuffer() {}

  static IndexWriterConfig configure(IndexWriterConfig config) {
    throw unsupported();
  }

  static Methods.Method open(IndexWriter writer, DvuCorpus corpus, long budgetBytes) {
    throw unsupported();
  }

  private static IllegalArgumentException unsupported() {
    return new IllegalArgumentException("update method 'ram-buffer' needs Lucene 7 or later; "
        + "this engine runs Lucene " + Version.LATEST);
  }
}
