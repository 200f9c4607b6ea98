package org.restlet;

/** Stand-in: the supertype of solr-core's REST roots (see the package-info). */
public abstract class Restlet {}
