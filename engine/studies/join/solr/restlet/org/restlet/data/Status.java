package org.restlet.data;

/** Stand-in: the statuses solr-core's managed-resource classes name (see the package-info of org.restlet). */
public final class Status {
  public static final Status CLIENT_ERROR_BAD_REQUEST = new Status();
  public static final Status CLIENT_ERROR_NOT_FOUND = new Status();
  public static final Status SERVER_ERROR_INTERNAL = new Status();
  public static final Status SERVER_ERROR_NOT_IMPLEMENTED = new Status();

  private Status() {}
}
