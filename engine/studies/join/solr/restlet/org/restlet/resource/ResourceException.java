package org.restlet.resource;

import org.restlet.data.Status;

/** Stand-in: the exception solr-core's RestManager and ManagedResource throw (see the package-info of org.restlet). */
public class ResourceException extends RuntimeException {

  public ResourceException(Status status) {
    super(String.valueOf(status));
  }

  public ResourceException(Status status, String message) {
    super(message);
  }

  public ResourceException(Status status, String message, Throwable cause) {
    super(message, cause);
  }
}
