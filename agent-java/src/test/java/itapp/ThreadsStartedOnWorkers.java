package itapp;

import java.util.Arrays;

/**
 * Threads started by placed threads, joined and asked about by main. {@code grandchildren}: two
 * parents each start two children, keep them in a shared object and end without joining them;
 * main joins the children (the home's join returned at once, and main printed zeros).
 * {@code launched}: main makes the children and the parents start them from their copies.
 * {@code joined}: the parents join their children and only then share them. The home did not start
 * any child, so it asks the workers ({@code ThreadsStartedOnWorkers}).
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
        final boolean joinsChildren;

        Parent(Family family, int me, boolean makesChildren, boolean joinsChildren) {
            super("parent-" + me);
            this.family = family;
            this.me = me;
            this.makesChildren = makesChildren;
            this.joinsChildren = joinsChildren;
        }

        @Override
        public void run() {
            if (joinsChildren) {
                Child[] mine = {new Child(family, me * 2), new Child(family, me * 2 + 1)};
                for (Child child : mine) {
                    child.start();
                }
                for (Child child : mine) {
                    try {
                        child.join();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    family.children[child.me] = child; // shared once it ended
                }
                return;
            }
            for (int c = me * 2; c < me * 2 + 2; c++) {
                if (makesChildren) {
                    family.children[c] = new Child(family, c);
                }
                family.children[c].start();
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        boolean launched = args[0].equals("launched");
        boolean joined = args[0].equals("joined");
        Family family = new Family();
        if (launched) {
            for (int c = 0; c < family.children.length; c++) {
                family.children[c] = new Child(family, c);
            }
        }
        Parent[] parents = {new Parent(family, 0, !launched, joined), new Parent(family, 1, !launched, joined)};
        for (Parent parent : parents) {
            parent.start();
        }
        for (Parent parent : parents) {
            parent.join();
        }
        StringBuilder states = new StringBuilder();
        for (Child child : family.children) {
            child.join();
            states.append(child.getName()).append(' ').append(child.isAlive()).append(' ').append(child.getState()).append(' ');
        }
        System.out.println(Arrays.toString(family.results));
        System.out.println(states.toString().trim());
    }
}
