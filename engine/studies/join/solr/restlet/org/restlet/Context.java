package org.restlet;

/** Stand-in: a REST application's context, as solr-core's REST APIs pass it to their routers. */
public final class Context {}
