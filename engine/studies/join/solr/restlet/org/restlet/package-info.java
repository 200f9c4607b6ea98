/**
 * A clean-room stand-in for the few Restlet types that solr-core 4.x and 7.x link against when a core
 * starts (its RestManager, which would serve managed stop words and synonyms over REST). Restlet is not
 * on Maven Central, so the engine's pom excludes it and compiles these instead: just the types and
 * signatures a core's start needs (read with javap from solr-core's classes), no behaviour; any method
 * that runs fails with {@link org.restlet.StandIn#unsupported()}. The REST API stays unused: the engine
 * reaches Solr through EmbeddedSolrServer, and its schema has no managed resources.
 */
package org.restlet;
