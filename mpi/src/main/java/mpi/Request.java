package mpi;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A non-blocking operation in progress. Once {@code Wait} or a successful {@code Test} has
 * returned its status, a request is inactive: {@link #Is_null()} is true and waiting on it again
 * returns an empty status at once.
 */
public class Request {
    private Operation operation;
    private final Comm comm;

    Request(Comm comm, Operation operation) {
        this.comm = comm;
        this.operation = operation;
    }

    void rearm(Operation next) {
        this.operation = next;
    }

    /** Blocks until the operation completes. */
    public Status Wait() throws MPIException {
        Operation current = operation;
        if (current == null) {
            return Status.empty();
        }
        Object value = await(current.completion());
        return complete(current, value);
    }

    /** The status if the operation has completed, else null. */
    public Status Test() throws MPIException {
        Operation current = operation;
        if (current == null) {
            return Status.empty();
        }
        poll(comm);
        if (!current.completion().isDone()) {
            return null;
        }
        return complete(current, await(current.completion()));
    }

    public boolean Is_null() {
        return operation == null;
    }

    /** Marks the request for release; a pending operation still completes. */
    public void Free() throws MPIException {
        operation = null;
    }

    /** Cancels a receive that has not matched; Test_cancelled on its status tells whether it worked. */
    public void Cancel() throws MPIException {
        Operation current = operation;
        if (current != null) {
            current.cancel();
        }
    }

    private Status complete(Operation current, Object value) throws MPIException {
        operation = null;
        return current.finish(value);
    }

    private Object await(CompletableFuture<?> completion) throws MPIException {
        try {
            return comm.messenger.await(completion);
        } catch (IOException e) {
            throw comm.error(new MPIException(MPI.ERR_OTHER, "receiving failed: " + e.getMessage(), e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw comm.error(new MPIException(MPI.ERR_OTHER, "interrupted while waiting for a request", e));
        } catch (ExecutionException e) {
            throw comm.error(new MPIException(MPI.ERR_OTHER, e.getCause().getMessage(), e.getCause()));
        }
    }

    // ---- completion of many -------------------------------------------------------------------

    /** Waits for one of the requests; its status carries its index, or index UNDEFINED when all are null. */
    public static Status Waitany(Request[] requests) throws MPIException {
        while (true) {
            List<CompletableFuture<?>> active = new ArrayList<>();
            for (int i = 0; i < requests.length; i++) {
                Operation op = requests[i] == null ? null : requests[i].operation;
                if (op != null) {
                    if (op.completion().isDone()) {
                        return indexed(requests[i].Wait(), i);
                    }
                    active.add(op.completion());
                }
            }
            if (active.isEmpty()) {
                return Status.empty();
            }
            try {
                communicatorOf(requests).messenger.awaitAny(active);
            } catch (IOException e) {
                throw new MPIException(MPI.ERR_OTHER, "receiving failed: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MPIException(MPI.ERR_OTHER, "interrupted in Waitany", e);
            }
        }
    }

    /** The status of one completed request with its index, or null when none has completed. */
    public static Status Testany(Request[] requests) throws MPIException {
        pollAll(requests);
        boolean anyActive = false;
        for (int i = 0; i < requests.length; i++) {
            Operation op = requests[i] == null ? null : requests[i].operation;
            if (op != null) {
                anyActive = true;
                if (op.completion().isDone()) {
                    return indexed(requests[i].Wait(), i);
                }
            }
        }
        return anyActive ? null : Status.empty();
    }

    /** Waits for all; statuses in request order. */
    public static Status[] Waitall(Request[] requests) throws MPIException {
        Status[] statuses = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            statuses[i] = requests[i] == null ? Status.empty() : requests[i].Wait();
        }
        return statuses;
    }

    /** All statuses if every request has completed, else null (and nothing is completed). */
    public static Status[] Testall(Request[] requests) throws MPIException {
        pollAll(requests);
        for (Request request : requests) {
            if (request != null && request.operation != null && !request.operation.completion().isDone()) {
                return null;
            }
        }
        return Waitall(requests);
    }

    /** Waits until at least one completes; the statuses of all that have, with their indices. */
    public static Status[] Waitsome(Request[] requests) throws MPIException {
        Status first = Waitany(requests);
        if (first.index == MPI.UNDEFINED) {
            return new Status[0];
        }
        List<Status> done = new ArrayList<>(List.of(first));
        Status[] others = Testsome(requests);
        done.addAll(List.of(others));
        return done.toArray(Status[]::new);
    }

    /** The statuses, with indices, of the requests that have completed (possibly none). */
    public static Status[] Testsome(Request[] requests) throws MPIException {
        pollAll(requests);
        List<Status> done = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            Operation op = requests[i] == null ? null : requests[i].operation;
            if (op != null && op.completion().isDone()) {
                done.add(indexed(requests[i].Wait(), i));
            }
        }
        return done.toArray(Status[]::new);
    }

    /** Receives what has arrived for the rank of these requests (they all belong to one rank). */
    private static void pollAll(Request[] requests) throws MPIException {
        Comm comm = communicatorOf(requests);
        if (comm != null) {
            poll(comm);
        }
    }

    private static void poll(Comm comm) throws MPIException {
        try {
            comm.messenger.poll();
        } catch (IOException e) {
            throw comm.error(new MPIException(MPI.ERR_OTHER, "receiving failed: " + e.getMessage(), e));
        }
    }

    /** The communicator of the first request that has one ({@link MPI#REQUEST_NULL} has none), or null. */
    private static Comm communicatorOf(Request[] requests) {
        for (Request request : requests) {
            if (request != null && request.comm != null) {
                return request.comm;
            }
        }
        return null;
    }

    private static Status indexed(Status status, int index) {
        status.index = index;
        return status;
    }
}
