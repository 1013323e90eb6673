package itapp;

/** Prints that it started, then sleeps: a home that tests can kill at a known point. */
public final class Sleeper {
    private Sleeper() {}

    public static void main(String[] args) throws InterruptedException {
        System.out.println("sleeper started");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
