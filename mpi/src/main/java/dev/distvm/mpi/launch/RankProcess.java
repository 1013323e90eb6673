package dev.distvm.mpi.launch;

/** A rank of a processes-mode job as mpirun sees it: a child process here, or one a daemon started elsewhere. */
interface RankProcess {
    int rank();

    /** Where it runs, for messages: {@code pid 123}, or {@code pid 123 on 10.0.0.3}. */
    String where();

    /**
     * Waits at most {@code millis} for it to end.
     *
     * @return how it ended, or null while it runs
     */
    Ended awaitEnd(long millis) throws InterruptedException;

    /** Stops it (and what it started) if it still runs. */
    void stop();

    /** How a rank ended: its exit status, and what to say when that is a failure. */
    record Ended(int status, String how) {
        static Ended exited(int status) {
            return new Ended(status, "exited with " + status);
        }
    }
}
