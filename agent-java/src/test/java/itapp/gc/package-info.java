/**
 * A program for the distributed GC test: many short threads whose tasks and arrays become garbage
 * once joined.
 */
package itapp.gc;
