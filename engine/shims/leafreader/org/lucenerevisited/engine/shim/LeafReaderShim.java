package org.lucenerevisited.engine.shim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.Bits;

/**
 * The API shared by Lucene 5 and later: {@code LeafReader}, {@code PostingsEnum}, {@code
 * Path}-based directories, version-less analyzers and writer configs, the query cache. Each major's
 * {@code LuceneShimImpl} extends it, implements what changed between these majors (searching, stored
 * fields) and overrides what its major alone changed.
 */
public abstract class LeafReaderShim implements LuceneShim {

  @Override
  public Set<String> readOnlyPostingsFormats() {
    return Set.of();
  }

  @Override
  public Directory openMMapDirectory(Path path) throws IOException {
    return new MMapDirectory(path);
  }

  @Override
  public IndexWriterConfig newIndexWriterConfig() {
    return new IndexWriterConfig(new WhitespaceAnalyzer());
  }

  @Override
  public DirectoryReader openNrtReader(IndexWriter writer) throws IOException {
    return DirectoryReader.open(writer);
  }

  @Override
  public List<Leaf> leaves(IndexReader reader) {
    List<Leaf> out = new ArrayList<>();
    for (LeafReaderContext ctx : reader.leaves()) {
      out.add(new Leaf(ctx.reader(), ctx.docBase));
    }
    return out;
  }

  @Override
  public TermsEnum termsEnum(IndexReader leaf, String field) throws IOException {
    Terms terms = ((LeafReader) leaf).terms(field);
    return terms == null ? null : terms.iterator();
  }

  @Override
  public Bits liveDocs(IndexReader leaf) {
    return ((LeafReader) leaf).getLiveDocs();
  }

  @Override
  public DocIdSetIterator postings(TermsEnum termsEnum, DocIdSetIterator reuse)
      throws IOException {
    return termsEnum.postings((PostingsEnum) reuse, PostingsEnum.NONE);
  }

  @Override
  public IndexSearcher newSearcher(IndexReader reader) {
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(null);
    return searcher;
  }

  @Override
  public String fieldAttribute(IndexReader leaf, String field, String key) {
    FieldInfo fi = ((LeafReader) leaf).getFieldInfos().fieldInfo(field);
    return fi == null ? null : fi.getAttribute(key);
  }
}
