/**
 * The {@code -javaagent} entry: parses the options, installs the class transformer that applies the
 * rewriter to application classes, and starts this JVM's node.
 */
package dev.distvm.agent;
