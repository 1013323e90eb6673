package samples.linkedlist;

import samples.KernelTime;

/**
 * Parallel construction of one singly linked list of application Node objects (seed 003). Element
 * k of the list holds value(k), a deliberately slow integer mix standing in for per-element work.
 * Each of T builder threads (Runnable lambdas) makes its own sublist for the indices
 * [size*t/T, size*(t+1)/T) and then appends it to the shared list, whose synchronized append waits
 * (wait/notifyAll) until it is that thread's turn, so sublists are linked in thread-id order. After
 * join, main walks the list and prints its length, sum and an order-dependent hash: the list, and so
 * the output, is the same for every schedule and every thread count.
 *
 * <p>usage: LinkedListBuild [threads] [size] (defaults 4, 200000)
 */
public final class LinkedListBuild {
    private LinkedListBuild() {}

    static final class Node {
        final long value;
        Node next;
        Node(long value) { this.value = value; }
    }

    static final class SharedList {
        Node head, tail;
        private int turn;

        /** Links first..last (both null for an empty sublist) once all lower-numbered builders have. */
        synchronized void append(int builder, Node first, Node last) throws InterruptedException {
            while (turn != builder) wait();
            if (first != null) {
                if (head == null) head = first; else tail.next = first;
                tail = last;
            }
            turn++;
            notifyAll();
        }
    }

    static SharedList list;

    static long value(long k) {
        long x = k + 1;
        for (int round = 0; round < 300; round++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            x += round;
        }
        return x & 0xFFFFFFL;
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        long size = args.length > 1 ? Long.parseLong(args[1]) : 200_000L;
        list = new SharedList();
        long kernel = KernelTime.start();
        Thread[] builders = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int id = t;
            builders[t] = new Thread(() -> {
                Node first = null, last = null;
                for (long k = size * id / threads; k < size * (id + 1) / threads; k++) {
                    Node node = new Node(value(k));
                    if (first == null) first = node; else last.next = node;
                    last = node;
                }
                try {
                    list.append(id, first, last);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "builder-" + t);
            builders[t].start();
        }
        for (Thread b : builders) b.join();
        KernelTime.report(kernel);
        long count = 0, sum = 0, hash = 0;
        for (Node node = list.head; node != null; node = node.next) {
            count++;
            sum += node.value;
            hash = hash * 1_000_003L + node.value;
        }
        System.out.printf("list of %d nodes: sum %d hash %016x%n", count, sum, hash);
    }
}
