/** Ending this JVM from any thread, and the exit statuses a run ends with. */
package dev.distvm.exit;
