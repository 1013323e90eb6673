/**
 * Sample: JESSICA's ray tracer, worker threads taking lines from a synchronized job queue and
 * writing a shared image.
 */
package samples.raytrace;
