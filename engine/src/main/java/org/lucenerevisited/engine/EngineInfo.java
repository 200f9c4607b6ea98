package org.lucenerevisited.engine;

import java.lang.management.ManagementFactory;
import java.util.TreeSet;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.util.Version;

/** What this engine runs on, for provenance records written next to every result. */
public final class EngineInfo {

  private EngineInfo() {}

  /** Lucene's own version constant, i.e. the jar actually loaded, not the one requested. */
  public static String luceneVersion() {
    return Version.LATEST.toString();
  }

  public static String javaVersion() {
    return System.getProperty("java.version");
  }

  public static String javaVendor() {
    return System.getProperty("java.vendor");
  }

  public static String[] jvmInputArguments() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().toArray(new String[0]);
  }

  /** Every postings format SPI name on the classpath, sorted, read-only ones included. */
  public static String[] availablePostingsFormats() {
    return new TreeSet<>(PostingsFormat.availablePostingsFormats()).toArray(new String[0]);
  }
}
