package itapp.unsupported;

import java.util.Arrays;

/**
 * Threads started by placed threads, asked about by threads of other nodes. {@code grandchildren}:
 * two parents each start two children, keep them in a shared object and end without joining them;
 * main joins the children, which only the parents' nodes know the end of (the home's join returned
 * at once and main printed zeros). {@code launched}: main makes the children and a launcher thread
 * starts them from their copies. Either stops the run at main's join (the home did not start the
 * children, and workers hold them) rather than print what a join that did not wait saw.
 */
public final class ThreadsStartedOnWorkers {
    private ThreadsStartedOnWorkers() {}

    static final class Family {
        final Child[] children = new Child[4];
        final long[] results = new long[4];
    }

    static final class Child extends Thread {
        final Family family;
        final int me;

        Child(Family family, int me) {
            super("child-" + me);
            this.family = family;
            this.me = me;
        }

        @Override
        public void run() {
            long sum = 0;
            for (int i = 0; i < 30_000_000; i++) {
                sum += (i ^ me) & 15;
            }
            family.results[me] = sum;
        }
    }

    static final class Parent extends Thread {
        final Family family;
        final int me;
        final boolean makesChildren;

        Parent(Family family, int me, boolean makesChildren) {
            super("parent-" + me);
            this.family = family;
            this.me = me;
            this.makesChildren = makesChildren;
        }

        @Override
        public void run() {
            for (int c = me * 2; c < me * 2 + 2; c++) {
                if (makesChildren) {
                    family.children[c] = new Child(family, c);
                }
                family.children[c].start();
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        boolean grandchildren = args[0].equals("grandchildren");
        Family family = new Family();
        if (!grandchildren) {
            for (int c = 0; c < family.children.length; c++) {
                family.children[c] = new Child(family, c);
            }
        }
        Parent[] parents = {new Parent(family, 0, grandchildren), new Parent(family, 1, grandchildren)};
        for (Parent parent : parents) {
            parent.start();
        }
        for (Parent parent : parents) {
            parent.join();
        }
        for (Child child : family.children) {
            child.join();
        }
        System.out.println(Arrays.toString(family.results));
    }
}
