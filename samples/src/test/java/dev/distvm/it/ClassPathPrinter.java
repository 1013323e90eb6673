package dev.distvm.it;

/** Prints the class path the program is shown ({@code java.class.path}). */
public final class ClassPathPrinter {
    private ClassPathPrinter() {}

    public static void main(String[] args) {
        System.out.println(System.getProperty("java.class.path"));
    }
}
