/**
 * What a run did, for the run report: the counters registry, the records of threads, placements
 * and stops, and the JSON document the home writes; and, for a flight recording, the events of
 * the same things.
 */
package dev.distvm.report;
