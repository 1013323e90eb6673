/**
 * Sample: parallel construction of one shared linked list, sublists appended in turn under
 * wait/notifyAll (seed 003).
 */
package samples.linkedlist;
