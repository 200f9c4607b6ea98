package org.lucenerevisited.join;

import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Version;

/**
 * The study's contenders by name. Lucene ones: {@code block} ({@link BlockJoin}), {@code terms}
 * ({@link TermsJoin}), {@code ordinals} ({@link OrdinalsJoin}, Lucene 7+) and {@code scan}
 * ({@link ScanJoin}). Names starting {@code solr-} are real Solr query parsers, opened through
 * {@code org.lucenerevisited.join.solr.SolrContenders}, which only Solr builds of the engine contain.
 */
public final class Contenders {

  public static final String SOLR_PREFIX = "solr-";
  static final String SOLR_FACTORY = "org.lucenerevisited.join.solr.SolrContenders";
  private static final List<String> LUCENE = List.of("block", "terms", "ordinals", "scan");

  private Contenders() {}

  /** The Lucene contenders this version runs, in a fixed order. */
  public static String[] lucene() {
    List<String> out = new ArrayList<>(LUCENE);
    if (!OrdinalsJoin.AVAILABLE) {
      out.remove("ordinals");
    }
    return out.toArray(new String[0]);
  }

  /** A Lucene contender on the caller's reader, which the caller closes after the contender. */
  public static JoinContender open(String name, IndexReader reader) throws IOException {
    return lucene(check(name), reader, null);
  }

  /**
   * Contender {@code name} on the index at {@code index}, opened through a directory of kind
   * {@code directory} ({@link IndexDirectories}); closing the contender closes what it opened. For a
   * {@code solr-} name, {@code index} is the Solr index and {@code solrCaches} its core's {@code <query>}
   * cache elements (unused by the Lucene contenders).
   */
  public static JoinContender open(String name, Path index, String directory, String solrCaches)
      throws IOException {
    if (name.startsWith(SOLR_PREFIX)) {
      return solr(name, index, directory, solrCaches);
    }
    check(name);
    Directory dir = IndexDirectories.open(index, directory);
    DirectoryReader reader;
    try {
      reader = DirectoryReader.open(dir);
    } catch (IOException | RuntimeException e) {
      dir.close();
      throw e;
    }
    Closeable owned = () -> {
      try (dir) {
        reader.close();
      }
    };
    try {
      return lucene(name, reader, owned);
    } catch (IOException | RuntimeException e) {
      owned.close();
      throw e;
    }
  }

  private static String check(String name) {
    if (!List.of(lucene()).contains(name)) {
      String why = LUCENE.contains(name) ? "is not available on" : "is not a contender of";
      throw new IllegalArgumentException("join contender '" + name + "' " + why + " Lucene " + Version.LATEST
          + "; its Lucene contenders: " + String.join(", ", lucene()) + " (Solr ones start with '" + SOLR_PREFIX + "')");
    }
    return name;
  }

  private static JoinContender lucene(String name, IndexReader reader, Closeable owned) throws IOException {
    return switch (name) {
      case "block" -> new BlockJoin(reader, owned);
      case "terms" -> new TermsJoin(reader, owned);
      case "ordinals" -> OrdinalsJoin.open(reader, owned);
      default -> new ScanJoin(reader, owned);
    };
  }

  private static JoinContender solr(String name, Path index, String directory, String caches)
      throws IOException {
    Method open;
    try {
      open = Class.forName(SOLR_FACTORY).getMethod("open", String.class, Path.class, String.class, String.class);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("join contender '" + name + "' needs Solr, but this engine for Lucene "
          + Version.LATEST + " was built without Solr (no " + SOLR_FACTORY + ")", e);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(SOLR_FACTORY + " has no static open(String, Path, String, String)", e);
    }
    try {
      return (JoinContender) open.invoke(null, name, index, directory, caches);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException("opening " + name + " failed", cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(SOLR_FACTORY + ".open is not accessible", e);
    }
  }
}
