package org.lucenerevisited.join;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.lucenerevisited.engine.corpus.DocsTsv;
import org.lucenerevisited.engine.harness.Request;
import org.lucenerevisited.engine.harness.Table;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The seed's conclusion, measured: what changing one child's acl costs each design. Block join must write the
 * child's whole block again (its children and parent deleted and added in one {@code updateDocuments} call, so
 * that they stay adjacent: a block join finds a child's parent as the next parent in docID order); query-time
 * join rewrites the child alone ({@code updateDocument} on its id). Runs on a copy of the study's Lucene index,
 * which it changes; an NRT reopen follows every {@code perReopen} updates, so that flushing what was written is
 * part of the cost.
 */
public final class ChildUpdates implements Closeable {

  private static final LuceneShim SHIM = LuceneShim.INSTANCE;

  public static final String BLOCK = "block";
  public static final String CHILD = "child";

  private final boolean wholeBlock;
  private final List<JoinCorpus.Block> blocks;
  private final int aclDomain;
  private final int perReopen;
  private final Directory dir;
  private final IndexWriter writer;
  private DirectoryReader reader;
  /** Which blocks an update changed, for {@link #verify}: an array, so that the timed loop does no boxing. */
  private final boolean[] touched;

  /**
   * {@code design} is {@link #BLOCK} or {@link #CHILD}; the updates cycle over {@code count} blocks of the corpus
   * spread evenly through it (each block's join key must be its own: the corpus with one parent per key).
   */
  public ChildUpdates(String index, String corpusDir, String design, int count, int aclDomain, int perReopen)
      throws IOException {
    if (!BLOCK.equals(design) && !CHILD.equals(design)) {
      throw new IllegalArgumentException("design must be " + BLOCK + " or " + CHILD + ", got '" + design + "'");
    }
    if (count < 1 || perReopen < 1 || aclDomain < 1) {
      throw new IllegalArgumentException("count, perReopen and aclDomain must be >= 1, got " + count + ", "
          + perReopen + ", " + aclDomain);
    }
    this.wholeBlock = BLOCK.equals(design);
    this.blocks = sample(Path.of(corpusDir).resolve(JoinCorpus.DOCS), count);
    this.touched = new boolean[blocks.size()];
    this.aclDomain = aclDomain;
    this.perReopen = perReopen;
    IndexWriterConfig config = LuceneShim.INSTANCE.newIndexWriterConfig()
        .setOpenMode(IndexWriterConfig.OpenMode.APPEND).setUseCompoundFile(false);
    this.dir = LuceneShim.INSTANCE.openMMapDirectory(Path.of(index));
    this.writer = new IndexWriter(dir, config);
    this.reader = LuceneShim.INSTANCE.openNrtReader(writer);
  }

  private static List<JoinCorpus.Block> sample(Path docsTsv, int count) throws IOException {
    long total = DocsTsv.countRows(docsTsv);
    if (count > total) {
      throw new IllegalArgumentException(docsTsv + " has " + total + " blocks, fewer than the " + count + " asked");
    }
    long every = total / count;
    List<JoinCorpus.Block> out = new ArrayList<>(count);
    long[] row = {0};
    JoinCorpus.forEach(docsTsv, block -> {
      if (row[0]++ % every == 0 && out.size() < count) {
        out.add(block);
      }
    });
    return out;
  }

  /** Update i: child {@code i % children} of block {@code i % count} gets the next acl value. */
  public Request request() {
    return this::update;
  }

  private void update(int i) throws IOException {
    int b = i % blocks.size();
    JoinCorpus.Block block = blocks.get(b);
    int c = i % block.acls().length;
    block.acls()[c] = (block.acls()[c] + 1) % aclDomain;
    touched[b] = true;
    if (wholeBlock) {
      // The children are found by their join id, the parent by its id: the corpus gives each block its own key.
      writer.deleteDocuments(new Term(JoinSchema.JOIN_ID, block.joinKey()));
      writer.updateDocuments(new Term(JoinSchema.ID, block.parentId()), JoinSchema.block(block));
    } else {
      writer.updateDocument(new Term(JoinSchema.ID, block.childId(c)), JoinSchema.child(block, c));
    }
    if ((i + 1) % perReopen == 0) {
      reopen();
    }
  }

  private void reopen() throws IOException {
    DirectoryReader next = LuceneShim.INSTANCE.reopenNrtReader(reader, writer);
    if (next != null) {
      reader.close();
      reader = next;
    }
  }

  /**
   * After a reopen, one row per updated block: blocks, live docs of its children and parent found by id
   * ({@code found}: each exactly once), children whose acl is the last one written ({@code acl_ok}), and, for
   * block join, whether the block is still adjacent with the parent last ({@code adjacent}; 1 for query-time
   * join, which does not need it). Written as a table so that both designs' answers can be compared.
   */
  public Table verify() throws IOException {
    reopen();
    IndexSearcher searcher = SHIM.newSearcher(reader);
    Table.Builder out = Table.builder().stringColumn("parent").longColumn("children").longColumn("found")
        .longColumn("acl_ok").longColumn("adjacent");
    for (int b = 0; b < blocks.size(); b++) {
      if (!touched[b]) {
        continue;
      }
      JoinCorpus.Block block = blocks.get(b);
      int n = block.acls().length;
      long found = 0, aclOk = 0;
      int[] docs = new int[n + 1];
      for (int c = 0; c <= n; c++) {
        String id = c < n ? block.childId(c) : block.parentId();
        TopDocs hits = SHIM.topDocs(searcher, new TermQuery(new Term(JoinSchema.ID, id)), 2);
        if (SHIM.totalHits(hits) == 1) {
          found++;
          docs[c] = hits.scoreDocs[0].doc;
        }
        if (c < n && SHIM.totalHits(SHIM.topDocs(searcher, Queries.filtered(new TermQuery(new Term(JoinSchema.ID, id)),
            Acl.range(JoinSchema.ACL, block.acls()[c], block.acls()[c])), 1)) == 1) {
          aclOk++;
        }
      }
      boolean adjacent = !wholeBlock || found == n + 1 && adjacent(docs);
      out.addRow(block.parentId(), (long) n, found, aclOk, adjacent ? 1L : 0L);
    }
    return out.build();
  }

  /** The children's docIDs run consecutively, in order, straight before the parent's. */
  private static boolean adjacent(int[] docs) {
    for (int c = 1; c < docs.length; c++) {
      if (docs[c] != docs[c - 1] + 1) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void close() throws IOException {
    try {
      reader.close();
      writer.close();
    } finally {
      dir.close();
    }
  }
}
