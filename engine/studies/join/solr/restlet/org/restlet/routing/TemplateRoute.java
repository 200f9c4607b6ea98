package org.restlet.routing;

/** Stand-in: what Router.attach returns (see the package-info of org.restlet). */
public final class TemplateRoute {

  private TemplateRoute() {}
}
