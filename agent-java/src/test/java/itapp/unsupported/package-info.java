/**
 * Programs that use what dist cannot share or run on a worker (JDK collections reached by a
 * thread's task or stored later, native methods): each must stay home or stop the run with a
 * message, never compute wrongly.
 */
package itapp.unsupported;
