package itapp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Says it is ready, waits for a line on standard input (while a test attacks the cluster), then
 * has four threads add to a shared counter under its monitor and prints the total.
 */
public final class SharedCounter {
    private static final int THREADS = 4;
    private static final int ADDS = 500;

    private int count;

    private SharedCounter() {}

    private synchronized void add() {
        count++;
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        System.out.println("shared counter ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        SharedCounter counter = new SharedCounter();
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < ADDS; i++) {
                    counter.add();
                }
            }, "adder-" + t);
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        synchronized (counter) {
            System.out.println("count=" + counter.count);
        }
    }
}
