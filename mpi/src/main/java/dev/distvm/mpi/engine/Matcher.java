package dev.distvm.mpi.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One rank's message matching: receives that wait for a message and messages that arrived before
 * their receive, both in order, so that two messages from one sender on one communicator are
 * received in the order they were sent (MPI's non-overtaking rule). A receive takes the first
 * matching message; a message goes to the first matching receive. A message coming off a socket
 * is matched when its header arrives ({@link #claim}), so that its payload can go straight into the
 * receive's buffer; a message that no receive wants yet is matched once complete, as if it had
 * arrived then.
 */
public final class Matcher {
    public static final int ANY_SOURCE = -2;
    public static final int ANY_TAG = -1;

    private final List<PostedReceive> posted = new LinkedList<>();
    private final List<Message> unexpected = new LinkedList<>();
    /** Receives whose message's header has matched them and whose payload is still arriving. */
    private final List<PostedReceive> filling = new ArrayList<>();
    private final Consumer<Message> onSynchronousMatch;
    private RuntimeException failure;

    /** @param onSynchronousMatch told (outside the lock) of each matched synchronous-mode message */
    Matcher(Consumer<Message> onSynchronousMatch) {
        this.onSynchronousMatch = onSynchronousMatch;
    }

    /** Posts a receive; it completes at once when a matching message is already here. */
    PostedReceive post(int context, int source, int tag, ReceiveBuffer buffer) {
        PostedReceive receive = new PostedReceive(context, source, tag, buffer);
        Message found = null;
        synchronized (this) {
            if (failure != null) {
                receive.arrival().completeExceptionally(failure);
                return receive;
            }
            for (Iterator<Message> it = unexpected.iterator(); it.hasNext(); ) {
                Message message = it.next();
                if (receive.matches(message.header())) {
                    it.remove();
                    found = message;
                    break;
                }
            }
            if (found == null) {
                posted.add(receive);
            }
        }
        if (found != null) {
            deliver(receive, found);
        }
        return receive;
    }

    /** A message arrived from the device (or from this rank itself). */
    void arrived(Message message) {
        PostedReceive receiver = null;
        synchronized (this) {
            for (Iterator<PostedReceive> it = posted.iterator(); it.hasNext(); ) {
                PostedReceive receive = it.next();
                if (receive.matches(message.header())) {
                    it.remove();
                    receiver = receive;
                    break;
                }
            }
            if (receiver == null) {
                unexpected.add(message);
                notifyAll(); // blocking probes
            }
        }
        if (receiver != null) {
            deliver(receiver, message);
        }
    }

    /** The first posted receive that a message with this header matches, taken off the list; null if none. */
    synchronized PostedReceive claim(MessageHeader header) {
        for (Iterator<PostedReceive> it = posted.iterator(); it.hasNext(); ) {
            PostedReceive receive = it.next();
            if (receive.matches(header)) {
                it.remove();
                filling.add(receive);
                return receive;
            }
        }
        return null;
    }

    /** The payload of a {@link #claim claimed} receive's message has arrived. */
    void landed(PostedReceive receive, Message message) {
        synchronized (this) {
            filling.remove(receive);
        }
        deliver(receive, message);
    }

    private void deliver(PostedReceive receive, Message message) {
        if (message.header().is(MessageHeader.SYNCHRONOUS)) {
            onSynchronousMatch.accept(message);
        }
        receive.arrival().complete(message);
    }

    /** The header of the first matching message that has arrived, or null; waits for one when {@code block}. */
    MessageHeader probe(int context, int source, int tag, boolean block) throws InterruptedException {
        PostedReceive pattern = new PostedReceive(context, source, tag, null);
        synchronized (this) {
            while (true) {
                if (failure != null) {
                    throw failure;
                }
                for (Message message : unexpected) {
                    if (pattern.matches(message.header())) {
                        return message.header();
                    }
                }
                if (!block) {
                    return null;
                }
                wait();
            }
        }
    }

    /** Cancels a receive that has not matched yet; false when it already has. */
    boolean cancel(PostedReceive receive) {
        synchronized (this) {
            if (!posted.remove(receive)) {
                return false;
            }
        }
        receive.cancel();
        return true;
    }

    /** Fails every waiting receive and every later one and probe with {@code cause}. */
    void fail(RuntimeException cause) {
        List<PostedReceive> failed;
        synchronized (this) {
            failed = new ArrayList<>(posted);
            failed.addAll(filling);
            posted.clear();
            filling.clear();
            failure = cause;
            notifyAll();
        }
        failed.forEach(r -> r.arrival().completeExceptionally(cause));
    }
}
