package dev.distvm.transport;

import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.ErrorCode;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The receiving threads of an endpoint: the {@link Gatekeeper} accepts connections and sees them
 * authenticated, then one thread per authenticated connection reads it. On a connection a peer opened, requests and one-way messages go through {@link InboundChecks}
 * to the {@link Responder}; on one this endpoint opened, answers go through the checks to the
 * {@link PendingRequests}.
 */
final class Receivers {
    /** Marks the threads that must never block on the network: they are the ones that would answer. */
    private static final class ReaderThread extends Thread {
        ReaderThread(Runnable body, String name) {
            super(DaemonThreads.group(), body, name);
            setDaemon(true); // not made by DaemonThreads: its class is the mark
        }
    }

    private final Gatekeeper gatekeeper;
    private final int maxFrameBytes;
    private final TransportCounters counters;
    private final InboundChecks checks;
    private final Responder responder;
    private final PendingRequests pending;
    private final Set<Connection> inbound = ConcurrentHashMap.newKeySet();
    private volatile boolean open = true;

    Receivers(ServerSocketChannel listener, String address, TransportConfig config, boolean encrypt,
              TransportCounters counters,
              InboundChecks checks, Responder responder, PendingRequests pending) throws IOException {
        this.maxFrameBytes = config.maxFrameBytes();
        this.counters = counters;
        this.checks = checks;
        this.responder = responder;
        this.pending = pending;
        this.gatekeeper = new Gatekeeper(listener, address, config.secret(), encrypt, counters,
                this::authenticated);
    }

    void start() {
        gatekeeper.start();
    }

    /** True on a reader thread, which a blocking call would stall (the answer it waits for comes on one). */
    static boolean onReaderThread() {
        return Thread.currentThread() instanceof ReaderThread;
    }

    /** Reads the answers on a connection this endpoint opened; a read failure is reported to {@code lost}. */
    void readAnswers(Connection connection, Consumer<IOException> lost) {
        new ReaderThread(() -> {
            try {
                while (open) {
                    byte[] frame = connection.frames().read();
                    counters.received(frame.length);
                    Envelope answer = checks.answer(frame);
                    if (answer != null) {
                        pending.answer(answer);
                    }
                }
            } catch (IOException e) {
                if (open && !connection.isClosed()) {
                    lost.accept(e);
                }
            }
        }, "dist-transport-out " + connection.peer()).start();
    }

    /** Stops accepting (the port is free when this returns) and closes the connections peers opened. */
    void close() {
        open = false;
        gatekeeper.close();
    }

    void closeInbound() {
        inbound.forEach(Connection::close);
        inbound.clear();
    }

    /** A connection that has proved the secret gets its reader thread. */
    private void authenticated(SocketChannel channel, FrameCipher cipher) {
        String peer = String.valueOf(channel.socket().getRemoteSocketAddress());
        Connection connection = new Connection(peer, new FrameChannel(channel, maxFrameBytes, cipher));
        inbound.add(connection);
        new ReaderThread(() -> readRequests(connection), "dist-transport-in " + peer).start();
    }

    /** Reader of a connection a peer opened: requests and one-way messages. */
    private void readRequests(Connection connection) {
        try {
            while (open) {
                byte[] frame = connection.frames().read();
                counters.received(frame.length);
                try {
                    responder.serve(connection, checks.request(frame));
                } catch (InboundChecks.Refusal refusal) {
                    responder.refuse(connection, refusal);
                }
            }
        } catch (FrameChannel.FrameTooLargeException e) {
            responder.refuse(connection, 0, ErrorCode.MALFORMED, e.getMessage() + "; closing the connection");
        } catch (EOFException | ClosedChannelException e) {
            // the peer went away or this endpoint closed: the normal end of a connection
        } catch (IOException e) {
            Log.debug("connection from " + connection.peer() + " ended: " + e.getMessage());
        } finally {
            inbound.remove(connection);
            connection.close();
        }
    }
}
