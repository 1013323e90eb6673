/**
 * Sample: thousands of short-lived threads started and joined a few at a time, one per small task.
 */
package samples.forkjoin;
