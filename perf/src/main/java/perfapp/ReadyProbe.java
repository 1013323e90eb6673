package perfapp;

/**
 * Prints the wall clock (milliseconds since the epoch) as its {@code main} begins: the moment the
 * JVM, and dist's node with it, was ready to run the program. The start-up benchmark subtracts the
 * moment it launched the JVM.
 */
public final class ReadyProbe {
    private ReadyProbe() {}

    public static void main(String[] args) {
        System.out.println(System.currentTimeMillis());
    }
}
