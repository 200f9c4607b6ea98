package org.lucenerevisited.engine.shim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;

/**
 * Every Lucene API difference between majors, behind one interface. Exactly one implementation,
 * {@code LuceneShimImpl}, is compiled in: the build adds {@code shims/lucene${lucene.major}}.
 * Leaf readers are passed as {@link IndexReader}, the common supertype of 4.x {@code AtomicReader}
 * and 5+ {@code LeafReader}.
 */
public interface LuceneShim {

  /** The shim of the Lucene version this engine was built against. */
  LuceneShim INSTANCE = new LuceneShimImpl();

  /** One segment of a top-level reader; {@code docBase} turns its docIDs into global ones. */
  record Leaf(IndexReader reader, int docBase) {}

  /** Postings formats registered by SPI that can only read old indexes, never write. */
  Set<String> readOnlyPostingsFormats();

  /** An MMapDirectory, opened explicitly (4.x {@code FSDirectory.open} picks NIO on JDK 9+). */
  Directory openMMapDirectory(Path path) throws IOException;

  /** A writer config whose analyzer splits on whitespace; callers set everything else. */
  IndexWriterConfig newIndexWriterConfig();

  /** Near-real-time reader from the writer, with all buffered deletes applied. */
  DirectoryReader openNrtReader(IndexWriter writer) throws IOException;

  /** NRT reopen applying all deletes; null when nothing changed. The same call on every major. */
  default DirectoryReader reopenNrtReader(DirectoryReader reader, IndexWriter writer)
      throws IOException {
    return DirectoryReader.openIfChanged(reader, writer, true);
  }

  /** The segments of {@code reader} in docBase order. */
  List<Leaf> leaves(IndexReader reader);

  /** A fresh terms enum over {@code field} of a leaf, or null if the leaf has no such field. */
  TermsEnum termsEnum(IndexReader leaf, String field) throws IOException;

  /** The leaf's live docs, or null when it has no deletions. */
  Bits liveDocs(IndexReader leaf);

  /**
   * Doc-only postings of the enum's current term, reusing {@code reuse} when possible. Deleted
   * docs are NOT filtered (5+ never does; 4.x is asked not to): callers check {@link #liveDocs}.
   */
  DocIdSetIterator postings(TermsEnum termsEnum, DocIdSetIterator reuse) throws IOException;

  /** A per-field attribute recorded in the leaf's field infos, or null. */
  String fieldAttribute(IndexReader leaf, String field, String key);

  /**
   * A searcher without the query cache (5+; 4.x has none), which would keep a repeated request's
   * filters across requests, so that a contender that repeats itself would search faster for that
   * reason alone.
   */
  IndexSearcher newSearcher(IndexReader reader);

  /**
   * The top {@code n} by score (ties by docID), counting every hit: from 8 a search stops counting at
   * 1,000 hits unless told otherwise, and may then skip non-competitive docs.
   */
  TopDocs topDocs(IndexSearcher searcher, Query query, int n) throws IOException;

  /** The exact hit count of {@link #topDocs}: an int before 7, a long in 7, a {@code TotalHits} from 8. */
  long totalHits(TopDocs top);

  /** The stored fields of {@code doc}: {@code IndexReader.document} before 9, {@code storedFields()} from 9. */
  Document document(IndexReader reader, int doc) throws IOException;

  /** The live docs {@code query} matches, one {@link FixedBitSet} per segment, by leaf ord. */
  FixedBitSet[] collectDocs(IndexSearcher searcher, Query query) throws IOException;

  /**
   * A constant-score query matching the live docs of {@code sets} (one per segment, by leaf ord, as
   * {@link #collectDocs} gives them), that no query cache keeps: from 7 its weight says so; 6's weights
   * cannot, and only a searcher from {@link #newSearcher} keeps it out of a cache there.
   */
  Query docSetQuery(FixedBitSet[] sets);
}
