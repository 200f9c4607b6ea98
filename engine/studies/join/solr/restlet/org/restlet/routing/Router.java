package org.restlet.routing;

import org.restlet.Context;
import org.restlet.Restlet;
import org.restlet.StandIn;

/** Stand-in: the router solr-core's REST APIs and RestManager attach endpoints to; never used here. */
public class Router extends Restlet {

  public Router(Context context) {
    throw StandIn.unsupported();
  }

  public TemplateRoute attach(String path, Class<?> target) {
    throw StandIn.unsupported();
  }

  public TemplateRoute attachDefault(Class<?> target) {
    throw StandIn.unsupported();
  }

  public void stop() throws Exception {
    throw StandIn.unsupported();
  }
}
