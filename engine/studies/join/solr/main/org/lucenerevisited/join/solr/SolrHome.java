package org.lucenerevisited.join.solr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.util.Version;

/**
 * A Solr home of one core, {@value #CORE}, written for the solr-core release on the classpath:
 * {@code solr.xml}, {@code join/core.properties}, {@code join/conf/schema.xml} and
 * {@code join/conf/solrconfig.xml}. The index lives in {@code data/index} below the home (inside it,
 * because Solr 8.6+ refuses a data dir outside the home unless allow-listed).
 *
 * <p>The schema is read as written ({@code ClassicIndexSchemaFactory}, no managed schema): the common
 * fields of the join study, {@code _root_} (which Solr needs to index nested documents, and which its
 * block join reads), DocValues on {@code join_id} and {@code join_key} (the score= and topLevelDV joins
 * read them), and an {@code acl} type that answers ranges on this release: a trie int on 4.x (points
 * came with 6.x), an int point field since. Similarity stays the release's default (TF-IDF on 4.x, BM25
 * since 6.x), as on the Lucene side. Its {@code <query>} caches are given by the caller (the config's
 * {@code join.solr_caches}: the release's stock caches minus the filter and query-result caches, which the
 * seed turned off); no update log and no auto-commit, as for a read-only index.
 */
public final class SolrHome {

  static final String CORE = "join";

  private final Path root;

  public SolrHome(Path root) {
    this.root = root;
  }

  public Path root() {
    return root;
  }

  /** Where Solr keeps the Lucene index of the core. */
  public Path index() {
    return root.resolve("data").resolve("index");
  }

  /**
   * Writes (or rewrites) the home's configuration; {@code directory} is {@code mmap} or {@code nio},
   * {@code caches} the cache elements of {@code <query>} (solrconfig.xml syntax; empty for none).
   */
  public void write(String directory, String caches) throws IOException {
    Path core = root.resolve(CORE);
    Files.createDirectories(core.resolve("conf"));
    Files.createDirectories(root.resolve("data"));
    // An empty <solr/> means core discovery: every folder with a core.properties is a core.
    write(root.resolve("solr.xml"), "<solr/>\n");
    write(core.resolve("core.properties"), "name=" + CORE + "\ndataDir=" + root.resolve("data").toAbsolutePath() + "\n");
    write(core.resolve("conf").resolve("schema.xml"), schema());
    write(core.resolve("conf").resolve("solrconfig.xml"), solrconfig(directoryFactory(directory), caches));
  }

  /** The solrconfig.xml element of {@code directory}, {@code mmap} or {@code nio}. */
  static String directoryFactory(String directory) {
    return switch (directory) {
      // Lucene 4.x can only unmap through JDK internals that JDK 9 closed: it would warn at each open.
      case "mmap" -> SolrRelease.major() < 5
          ? factory("solr.MMapDirectoryFactory", "<bool name=\"unmap\">false</bool>")
          : factory("solr.MMapDirectoryFactory", "");
      case "nio" -> factory("solr.NIOFSDirectoryFactory", "");
      default -> throw new IllegalArgumentException("unknown directory " + directory + " (mmap or nio)");
    };
  }

  private static String factory(String className, String args) {
    return "<directoryFactory name=\"DirectoryFactory\" class=\"" + className + "\">" + args + "</directoryFactory>";
  }

  private static String schema() {
    boolean points = SolrRelease.major() >= 7;
    String intType = points ? "solr.IntPointField\"" : "solr.TrieIntField\" precisionStep=\"8\"";
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <schema name="join" version="%s">
          <fieldType name="string" class="solr.StrField" sortMissingLast="true"/>
          <fieldType name="int" class="%s/>
          <fieldType name="text_ws" class="solr.TextField" positionIncrementGap="100">
            <analyzer><tokenizer class="solr.WhitespaceTokenizerFactory"/></analyzer>
          </fieldType>
          <field name="id" type="string" indexed="true" stored="true" required="true" docValues="false"/>
          <field name="_root_" type="string" indexed="true" stored="false" docValues="false"/>
          <field name="kind" type="string" indexed="true" stored="false" docValues="false"/>
          <field name="join_key" type="string" indexed="true" stored="false" docValues="true"/>
          <field name="join_id" type="string" indexed="true" stored="false" docValues="true"/>
          <field name="text_all" type="text_ws" indexed="true" stored="false"/>
          <field name="acl" type="int" indexed="true" stored="false" docValues="false"/>
          <uniqueKey>id</uniqueKey>
        </schema>
        """.formatted(points ? "1.6" : "1.5", intType);
  }

  private static String solrconfig(String directoryFactory, String caches) {
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <config>
          <luceneMatchVersion>%s</luceneMatchVersion>
          %s
          <schemaFactory class="ClassicIndexSchemaFactory"/>
          <indexConfig><lockType>native</lockType><useCompoundFile>false</useCompoundFile></indexConfig>
          <updateHandler class="solr.DirectUpdateHandler2"/>
          <query>
            %s
          </query>
          <requestHandler name="/select" class="solr.SearchHandler"/>
        </config>
        """.formatted(Version.LATEST, directoryFactory, caches);
  }

  private static void write(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
