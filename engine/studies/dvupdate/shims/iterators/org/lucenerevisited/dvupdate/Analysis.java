package org.lucenerevisited.dvupdate;

import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.IndexWriterConfig;

/** The seed's analyzer, StandardAnalyzer without stopwords (in lucene-core from Lucene 7 on). */
final class Analysis {

  private Analysis() {}

  static IndexWriterConfig writerConfig() {
    return new IndexWriterConfig(new StandardAnalyzer(CharArraySet.EMPTY_SET));
  }
}
