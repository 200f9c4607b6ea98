package org.lucenerevisited.dvupdate;

import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.util.Version;

/** Soft deletes arrived in Lucene 7.4: this version refuses the method. */
final class SoftUpdate {

  private SoftUpdate() {}

  static IndexWriterConfig configure(IndexWriterConfig config) {
    throw unsupported();
  }

  static Update open(IndexWriter writer, DvuCorpus corpus) {
    throw unsupported();
  }

  private static IllegalArgumentException unsupported() {
    return new IllegalArgumentException("update method 'soft' needs soft deletes (Lucene 7.4 and later); "
        + "this engine runs Lucene " + Version.LATEST);
  }
}
