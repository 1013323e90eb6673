package itapp;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.TimeZone;

/**
 * Threads configured by system properties, as programs are: one given with -D on the command
 * line, one main sets before starting them; and a thread that sets one main reads after join. And
 * threads formatting numbers and naming the time zone after main set the defaults, and printing
 * into the stream main put in place of System.out; and a thread renaming itself.
 */
public final class EnvironmentReaders {
    private EnvironmentReaders() {}

    public static void main(String[] args) throws InterruptedException {
        System.setProperty("itapp.mode", "fast");
        Locale.setDefault(Locale.GERMANY);
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
        PrintStream terminal = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true));
        String[] seen = new String[4];
        Thread[] threads = new Thread[seen.length];
        for (int t = 0; t < threads.length; t++) {
            int mine = t;
            threads[t] = new Thread(() -> {
                long spin = 0;
                for (int i = 0; i < 3_000_000; i++) {
                    spin += i % 3;
                }
                seen[mine] = Integer.getInteger("itapp.size", 100) + "/" + System.getProperty("itapp.mode") + "/" + spin % 2
                        + String.format(" %.2f %s", 3.25 + mine, TimeZone.getDefault().getID());
                System.out.println("printed by thread " + mine);
                if (mine == 2) {
                    Thread.currentThread().setName("reader-2, renamed by itself");
                }
                if (mine == 0) {
                    System.setProperty("itapp.result", "set by thread " + mine);
                }
            }, "reader-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.setOut(terminal);
        String[] lines = captured.toString().trim().split("\n");
        Arrays.sort(lines);
        System.out.println("captured " + String.join(", ", lines));
        System.out.println(Arrays.toString(seen));
        StringBuilder names = new StringBuilder("names");
        for (Thread t : threads) {
            names.append(" | ").append(t.getName());
        }
        System.out.println(names);
        System.out.println(System.getProperty("itapp.result"));
    }
}
