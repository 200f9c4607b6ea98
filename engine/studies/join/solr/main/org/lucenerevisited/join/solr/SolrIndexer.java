package org.lucenerevisited.join.solr;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.common.SolrInputDocument;

/**
 * Indexes a corpus's {@code docs.tsv} into a Solr core as nested documents: one parent per line with
 * its children attached, which Solr writes as one block, children first and the parent last (the
 * order {@code {!parent}} relies on). Blocks go in batches of {@code batch} per update request; then
 * one commit and a merge to a single segment.
 */
final class SolrIndexer {

  private SolrIndexer() {}

  /** Returns the number of blocks indexed. */
  static long index(Path docsTsv, SolrNode node, int batch) throws IOException {
    if (batch < 1) {
      throw new IllegalArgumentException("batch must be at least 1, got " + batch);
    }
    long blocks = 0;
    List<SolrInputDocument> pending = new ArrayList<>(batch);
    try (BufferedReader lines = Files.newBufferedReader(docsTsv, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isEmpty()) {
          continue;
        }
        pending.add(block(line));
        blocks++;
        if (pending.size() == batch) {
          node.add(pending);
          pending.clear();
        }
      }
    }
    if (!pending.isEmpty()) {
      node.add(pending);
    }
    node.commitAndMerge(1);
    return blocks;
  }

  /** A parent with its children, from {@code parent_id TAB join_key TAB text TAB acl_1,...,acl_c}. */
  static SolrInputDocument block(String line) {
    String[] cols = line.split("\t", -1);
    if (cols.length != 4) {
      throw new IllegalArgumentException("a docs.tsv line needs 4 tab-separated columns, got " + cols.length + ": " + line);
    }
    String parentId = cols[0];
    String joinKey = cols[1];
    SolrInputDocument parent = new SolrInputDocument();
    parent.addField("id", parentId);
    parent.addField("kind", "body");
    parent.addField("join_key", joinKey);
    parent.addField("text_all", cols[2]);
    if (!cols[3].isEmpty()) {
      String[] acls = cols[3].split(",");
      for (int i = 0; i < acls.length; i++) {
        SolrInputDocument child = new SolrInputDocument();
        child.addField("id", parentId + "-" + i);
        child.addField("kind", "acl");
        child.addField("join_id", joinKey);
        child.addField("acl", Integer.parseInt(acls[i]));
        parent.addChildDocument(child);
      }
    }
    return parent;
  }
}
