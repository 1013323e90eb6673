package itapp;

import java.util.Arrays;
import java.util.Locale;
import java.util.TimeZone;

/**
 * Threads configured by system properties, as programs are: one given with -D on the command
 * line, one main sets before starting them; and a thread that sets one main reads after join. And
 * threads formatting numbers and naming the time zone after main set the defaults.
 */
public final class PropertyReaders {
    private PropertyReaders() {}

    public static void main(String[] args) throws InterruptedException {
        System.setProperty("itapp.mode", "fast");
        Locale.setDefault(Locale.GERMANY);
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
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
                if (mine == 0) {
                    System.setProperty("itapp.result", "set by thread " + mine);
                }
            }, "reader-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println(Arrays.toString(seen));
        System.out.println(System.getProperty("itapp.result"));
    }
}
