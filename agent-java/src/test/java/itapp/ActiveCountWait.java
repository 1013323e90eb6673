package itapp;

import java.util.ArrayList;
import java.util.List;

/**
 * A main that waits for its threads the way many examples do, polling Thread.activeCount() until
 * only main is left; it counts and lists them through its ThreadGroup too. Threads placed on other nodes
 * count as alive until they end, and dist's own threads are not the program's.
 */
public final class ActiveCountWait {
    /** Set once main listed the threads: none ends before that. */
    static volatile boolean listed;

    private ActiveCountWait() {}

    static final class Share {
        long sum;
    }

    public static void main(String[] args) throws InterruptedException {
        Share[] shares = new Share[4];
        Thread[] started = new Thread[shares.length];
        for (int t = 0; t < shares.length; t++) {
            Share share = shares[t] = new Share();
            int mine = t;
            started[t] = new Thread(() -> {
                long sum = 0;
                for (int i = 0; i < 20_000_000; i++) {
                    sum += (i ^ mine) % 7;
                }
                share.sum = sum;
                while (!listed) {
                    pause();
                }
            }, "share-" + t);
            started[t].start();
        }
        int groupWhileRunning = Thread.currentThread().getThreadGroup().activeCount();
        List<String> whileRunning = names();
        listed = true;
        while (Thread.activeCount() > 1) {
            Thread.sleep(1);
        }
        long total = 0;
        for (Share share : shares) {
            total += share.sum;
        }
        System.out.println(total + " " + groupWhileRunning + " " + whileRunning + " "
                + Thread.currentThread().getThreadGroup().activeCount() + " " + names());
    }

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> names() {
        Thread[] threads = new Thread[64];
        int count = Thread.currentThread().getThreadGroup().enumerate(threads);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(threads[i].getName());
        }
        names.sort(null);
        return names;
    }
}
