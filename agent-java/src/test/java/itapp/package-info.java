/**
 * Application programs that the integration tests run under the agent, as a user's would run:
 * classes a worker loads from the home, the explicit API, threads, standard input, a home to kill.
 */
package itapp;
