package org.lucenerevisited.dvupdate;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.util.CharArraySet;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.util.Version;

/** The seed's analyzer, StandardAnalyzer without stopwords; 4.x configs still take a Version. */
final class Analysis {

  private Analysis() {}

  static IndexWriterConfig writerConfig() {
    return new IndexWriterConfig(Version.LATEST, new StandardAnalyzer(CharArraySet.EMPTY_SET));
  }
}
