package org.lucenerevisited.join;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * The study's index fields (the same names as in Solr's schema) and the documents of a block: its
 * children first, then the parent, as a block join requires. Parents and children both carry the
 * join value in the SortedDocValues field {@code jk}, the one field JoinUtil's global-ordinals join
 * reads on both sides.
 */
final class JoinSchema {

  static final String ID = "id";
  static final String KIND = "kind";
  static final String JOIN_KEY = "join_key";
  static final String JOIN_ID = "join_id";
  static final String TEXT = "text_all";
  static final String ACL = "acl";
  static final String JK = "jk";
  static final String PARENT_KIND = "body";
  static final String CHILD_KIND = "acl";

  private JoinSchema() {}

  /** The stored id of {@code doc}. */
  static String id(IndexSearcher searcher, int doc) throws IOException {
    return LuceneShim.INSTANCE.document(searcher.getIndexReader(), doc).get(ID);
  }

  static List<Document> block(JoinCorpus.Block block) {
    List<Document> docs = new ArrayList<>(block.acls().length + 1);
    for (int i = 0; i < block.acls().length; i++) {
      docs.add(child(block, i));
    }
    Document parent = new Document();
    parent.add(new StringField(ID, block.parentId(), Field.Store.YES));
    parent.add(new StringField(KIND, PARENT_KIND, Field.Store.NO));
    parent.add(new StringField(JOIN_KEY, block.joinKey(), Field.Store.NO));
    parent.add(new TextField(TEXT, block.text(), Field.Store.NO));
    parent.add(new SortedDocValuesField(JK, new BytesRef(block.joinKey())));
    docs.add(parent);
    return docs;
  }

  /** Child {@code i} of {@code block}, as {@link #block} writes it. */
  static Document child(JoinCorpus.Block block, int i) {
    Document child = new Document();
    child.add(new StringField(ID, block.childId(i), Field.Store.YES));
    child.add(new StringField(KIND, CHILD_KIND, Field.Store.NO));
    child.add(new StringField(JOIN_ID, block.joinKey(), Field.Store.NO));
    child.add(Acl.field(block.acls()[i]));
    child.add(new SortedDocValuesField(JK, new BytesRef(block.joinKey())));
    return child;
  }
}
