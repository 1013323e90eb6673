/**
 * Sample: threads that die of uncaught exceptions, caught by their own, their group's or the
 * default handler.
 */
package samples.handlers;
