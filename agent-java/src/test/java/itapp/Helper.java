package itapp;

/** A second application class, loaded on demand when {@link RemoteWork} first uses it. */
final class Helper {
    private Helper() {}

    static int sumOfSquares(int n) {
        int sum = 0;
        for (int i = 1; i <= n; i++) {
            sum += i * i;
        }
        return sum;
    }
}
