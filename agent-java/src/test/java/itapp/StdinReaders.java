package itapp;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Threads on every node share one standard input. It holds a count N, then N lines "INDEX WORD",
 * then free text to its end. main reads the count; three line readers each take N/3 of the
 * numbered lines, one line at a time under a lock, reading System.in a byte at a time; then a bulk
 * reader reads the rest through a BufferedReader (reads of up to 8192 bytes at once) and one byte
 * past the end. What it prints depends only on the input.
 */
public final class StdinReaders {
    private static final int LINE_READERS = 3;

    private StdinReaders() {}

    static final class Shared {
        final String[] words;
        String rest;

        Shared(int count) {
            words = new String[count];
        }
    }

    public static void main(String[] args) throws InterruptedException, IOException {
        int count = Integer.parseInt(readLine());
        Shared shared = new Shared(count);
        Thread[] readers = new Thread[LINE_READERS];
        // Holding the lock keeps every reader alive until all are started, so the placement is the
        // same in every run: on two nodes, readers 0 and 2 at the home and 1 on the worker.
        synchronized (shared) {
            for (int i = 0; i < LINE_READERS; i++) {
                readers[i] = new Thread(() -> readLines(shared, count / LINE_READERS), "line-reader-" + i);
                readers[i].start();
            }
        }
        for (Thread reader : readers) {
            reader.join();
        }
        Thread bulk = new Thread(() -> readRest(shared), "bulk-reader");
        bulk.start();
        bulk.join();
        for (int i = 0; i < count; i++) {
            System.out.println(i + " " + shared.words[i]);
        }
        System.out.println(shared.rest);
    }

    private static void readLines(Shared shared, int share) {
        for (int i = 0; i < share; i++) {
            synchronized (shared) {
                String[] line = readLine().split(" ", 2);
                shared.words[Integer.parseInt(line[0])] = line[1].toUpperCase();
            }
        }
    }

    /** One line of System.in, read a byte at a time so that nothing after it is consumed. */
    private static String readLine() {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try {
            for (int b = System.in.read(); b != '\n'; b = System.in.read()) {
                if (b < 0) {
                    throw new IllegalStateException("input ended inside a numbered line");
                }
                line.write(b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    private static void readRest(Shared shared) {
        BufferedReader rest = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int lines = 0;
        long chars = 0;
        int hash = 0;
        String last = null;
        try {
            for (String line = rest.readLine(); line != null; line = rest.readLine()) {
                lines++;
                chars += line.length();
                hash = 31 * hash + line.hashCode();
                last = line;
            }
            shared.rest = "rest: " + lines + " lines, " + chars + " chars, hash " + hash + ", last \"" + last
                    + "\", then " + System.in.read();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
