package org.lucenerevisited.join.solr;

import java.nio.file.Path;
import org.apache.solr.core.CoreContainer;

/** Starts the cores of a Solr home, Solr 5+ API (the home as a Path; 8.x dropped the String constructor). */
final class CoreContainers {

  private CoreContainers() {}

  static CoreContainer load(Path home) {
    return CoreContainer.createAndLoad(home.toAbsolutePath());
  }
}
