package org.lucenerevisited.join.solr;

import java.nio.file.Path;
import org.apache.solr.core.CoreContainer;

/** Starts the cores of a Solr home, Solr 4.x API (the home as a String; no createAndLoad(Path) yet). */
final class CoreContainers {

  private CoreContainers() {}

  static CoreContainer load(Path home) {
    CoreContainer container = new CoreContainer(home.toAbsolutePath().toString());
    container.load();
    return container;
  }
}
