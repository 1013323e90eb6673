package itapp;

/** Threads print text beyond ASCII, one after another: accented, CJK, a surrogate pair. */
public final class NonAsciiOutput {
    private NonAsciiOutput() {}

    public static void main(String[] args) throws InterruptedException {
        for (int t = 0; t < 2; t++) {
            int id = t;
            Thread printer = new Thread(() -> System.out.println("printer " + id + " h\u00e9llo \u65e5\u672c \uD83D\uDE00 done"),
                    "non-ascii-" + t);
            printer.start();
            printer.join();
        }
        System.out.println("main h\u00e9llo");
    }
}
