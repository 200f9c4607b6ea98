package org.restlet;

/** The one failure of the Restlet stand-in: Solr's REST API is not served by this engine. */
public final class StandIn {

  private StandIn() {}

  public static UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("Solr's REST API is not served here (Restlet is a stand-in)");
  }
}
