package itapp;

/**
 * Four threads print at once, each call in many pieces (a {@code printf} with many conversions,
 * two lines per call): on one JVM no thread's output lands inside another's call.
 */
public final class PrintingThreads {
    private PrintingThreads() {}

    public static void main(String[] args) throws InterruptedException {
        Thread[] printers = new Thread[4];
        for (int t = 0; t < printers.length; t++) {
            int id = t;
            printers[t] = new Thread(() -> {
                for (int i = 0; i < 400; i++) {
                    System.out.printf("printer %d call %d: %d %d %d %d %d %d %d %d%nprinter %d call %d: end%n", id, i,
                            i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, id, i);
                }
            }, "printer-" + t);
            printers[t].start();
        }
        for (Thread printer : printers) {
            printer.join();
        }
        System.out.println("done");
    }
}
