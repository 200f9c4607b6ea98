package org.restlet;

/**
 * Stand-in: the superclass of solr-core's schema and config REST APIs. A core only reads their static
 * lists of reserved endpoints, so nothing here ever runs; it fails loudly if something does.
 */
public abstract class Application extends Restlet {

  public Context getContext() {
    throw StandIn.unsupported();
  }

  public Restlet createInboundRoot() {
    throw StandIn.unsupported();
  }

  public void stop() throws Exception {
    throw StandIn.unsupported();
  }
}
