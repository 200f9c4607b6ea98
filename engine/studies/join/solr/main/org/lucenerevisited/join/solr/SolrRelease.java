package org.lucenerevisited.join.solr;

import org.apache.solr.core.SolrCore;

/** The solr-core release on the classpath, read from its jar's manifest (Specification-Version). */
final class SolrRelease {

  /** e.g. {@code 9.10.1}. */
  static final String VERSION = SolrCore.class.getPackage().getSpecificationVersion();

  private static final int[] PARTS = parse(VERSION);

  private SolrRelease() {}

  static int major() {
    return PARTS[0];
  }

  /** Whether this release is {@code major.minor} or later. */
  static boolean atLeast(int major, int minor) {
    return PARTS[0] > major || (PARTS[0] == major && PARTS[1] >= minor);
  }

  private static int[] parse(String version) {
    if (version == null) {
      throw new IllegalStateException("solr-core's manifest names no Specification-Version");
    }
    String[] parts = version.split("\\.");
    return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
  }
}
