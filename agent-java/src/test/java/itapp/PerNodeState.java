package itapp;

import java.util.Arrays;
import java.util.function.IntBinaryOperator;

/**
 * Enums as real programs use them. First, threads computing with enums that hold no state (final
 * values, a strategy lambda per constant, a static lookup table): they may run anywhere. Then
 * threads counting in an enum singleton and in a mode's field, which one JVM shares and each node's
 * own constants would not, and threads filling an array an interface holds: the counts and the
 * array must come out as on one JVM.
 */
public final class PerNodeState {
    enum Op {
        ADD((a, b) -> a + b), MUL((a, b) -> a * b);

        private final IntBinaryOperator function;

        Op(IntBinaryOperator function) {
            this.function = function;
        }

        int apply(int a, int b) {
            return function.applyAsInt(a, b);
        }
    }

    enum Registry {
        INSTANCE;
        private int count;
        private final int[] perThread = new int[THREADS];

        synchronized void add(int thread, int amount) {
            count += amount;
            perThread[thread] += amount;
        }
    }

    enum Mode { FAST, SLOW; int uses; }

    /** An interface's fields are made on every node too: an array in one is each node's own. */
    interface Results {
        int[] CELLS = new int[THREADS];
    }

    static final int THREADS = 4;
    static final Object LOCK = new Object();

    private PerNodeState() {}

    public static void main(String[] args) throws InterruptedException {
        int[] folded = new int[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int mine = t;
            threads[t] = new Thread(() -> {
                Op op = mine % 2 == 0 ? Op.ADD : Op.MUL;
                int acc = 1;
                for (int i = 1; i < 2_000_000; i++) {
                    acc = op.apply(acc, i) % 1_000_003;
                }
                folded[mine] = acc;
            }, "stateless-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("folded " + Arrays.toString(folded));
        Mode.FAST.uses = 10; // set by main before the threads start: they must see it
        for (int t = 0; t < THREADS; t++) {
            int mine = t;
            threads[t] = new Thread(() -> {
                long spin = 0;
                for (int i = 0; i < 2_000_000; i++) {
                    spin += i % 7;
                }
                Registry.INSTANCE.add(mine, (int) (spin % 100) + mine);
                Mode mode = mine % 2 == 0 ? Mode.FAST : Mode.SLOW;
                synchronized (LOCK) {
                    mode.uses++;
                }
            }, "stateful-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("registry " + Registry.INSTANCE.count + " " + Arrays.toString(Registry.INSTANCE.perThread));
        System.out.println("modes " + Mode.FAST.uses + " " + Mode.SLOW.uses);
        for (int t = 0; t < THREADS; t++) {
            int mine = t;
            threads[t] = new Thread(() -> {
                long spin = 0;
                for (int i = 0; i < 2_000_000; i++) {
                    spin += i % 5;
                }
                Results.CELLS[mine] = (int) (spin % 1000) + 10 + mine;
            }, "interface-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("cells " + Arrays.toString(Results.CELLS));
    }
}
