package mpi;

import java.util.concurrent.CompletableFuture;

/** The work behind a {@link Request}: a completion to wait for, and what to do once (unpack, build the status). */
interface Operation {
    /** Completes when the operation is complete; its value goes to {@link #finish}. */
    CompletableFuture<?> completion();

    /** Runs once, on the thread that waits or tests. */
    Status finish(Object value) throws MPIException;

    /** Cancels if still possible; false when the operation is already under way or done. */
    boolean cancel();

    /** An operation that completed when it was started (eager sends, PROC_NULL). */
    static Operation done(Status status) {
        return new Operation() {
            @Override
            public CompletableFuture<?> completion() {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public Status finish(Object value) {
                return status;
            }

            @Override
            public boolean cancel() {
                return false;
            }
        };
    }
}
