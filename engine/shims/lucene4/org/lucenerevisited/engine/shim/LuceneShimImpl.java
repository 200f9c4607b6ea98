package org.lucenerevisited.engine.shim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.index.AtomicReader;
import org.apache.lucene.index.AtomicReaderContext;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocsEnum;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BitsFilteredDocIdSet;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DocIdSet;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Filter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.Version;

/**
 * Lucene 4.x: AtomicReader, DocsEnum, File-based directories, Version-arg constructors; no query
 * cache, an int hit count that every search makes exact, and filters where later majors have queries.
 */
public final class LuceneShimImpl implements IntHitsShim {

  @Override
  public Set<String> readOnlyPostingsFormats() {
    // Lucene40 is registered only so 4.0 indexes stay readable; its writer throws.
    return Set.of("Lucene40");
  }

  @Override
  public Directory openMMapDirectory(Path path) throws IOException {
    return new MMapDirectory(path.toFile());
  }

  @Override
  public IndexWriterConfig newIndexWriterConfig() {
    return new IndexWriterConfig(Version.LATEST, new WhitespaceAnalyzer(Version.LATEST));
  }

  @Override
  public DirectoryReader openNrtReader(IndexWriter writer) throws IOException {
    return DirectoryReader.open(writer, true);
  }

  @Override
  public List<Leaf> leaves(IndexReader reader) {
    List<Leaf> out = new ArrayList<>();
    for (AtomicReaderContext ctx : reader.leaves()) {
      out.add(new Leaf(ctx.reader(), ctx.docBase));
    }
    return out;
  }

  @Override
  public TermsEnum termsEnum(IndexReader leaf, String field) throws IOException {
    Terms terms = ((AtomicReader) leaf).terms(field);
    return terms == null ? null : terms.iterator(null);
  }

  @Override
  public Bits liveDocs(IndexReader leaf) {
    return ((AtomicReader) leaf).getLiveDocs();
  }

  @Override
  public DocIdSetIterator postings(TermsEnum termsEnum, DocIdSetIterator reuse)
      throws IOException {
    return termsEnum.docs(null, (DocsEnum) reuse, DocsEnum.FLAG_NONE);
  }

  @Override
  public String fieldAttribute(IndexReader leaf, String field, String key) {
    FieldInfo fi = ((AtomicReader) leaf).getFieldInfos().fieldInfo(field);
    return fi == null ? null : fi.getAttribute(key);
  }

  @Override
  public IndexSearcher newSearcher(IndexReader reader) {
    return new IndexSearcher(reader);
  }

  @Override
  public FixedBitSet[] collectDocs(IndexSearcher searcher, Query query) throws IOException {
    List<AtomicReaderContext> leaves = searcher.getIndexReader().leaves();
    FixedBitSet[] sets = new FixedBitSet[leaves.size()];
    for (AtomicReaderContext leaf : leaves) {
      sets[leaf.ord] = new FixedBitSet(leaf.reader().maxDoc());
    }
    searcher.search(query, new Collector() {
      private FixedBitSet set;

      @Override
      public void setScorer(Scorer scorer) {}

      @Override
      public void collect(int doc) {
        set.set(doc);
      }

      @Override
      public void setNextReader(AtomicReaderContext context) {
        set = sets[context.ord];
      }

      @Override
      public boolean acceptsDocsOutOfOrder() {
        return true;
      }
    });
    return sets;
  }

  @Override
  public Query docSetQuery(FixedBitSet[] sets) {
    return new ConstantScoreQuery(new Filter() {
      @Override
      public DocIdSet getDocIdSet(AtomicReaderContext context, Bits acceptDocs) {
        return BitsFilteredDocIdSet.wrap(sets[context.ord], acceptDocs);
      }
    });
  }
}
