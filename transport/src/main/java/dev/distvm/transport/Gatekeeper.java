package dev.distvm.transport;

import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * An endpoint's one thread for connections that have not authenticated yet: it accepts them and
 * runs their {@link PendingHandshake}s on one selector, within {@link UnauthenticatedLimits}. A
 * connection that proves the secret is handed on, blocking again, to get a reader thread of its
 * own; one that fails, stalls past the timeout or is over a limit is closed and counted rejected.
 */
final class Gatekeeper {
    private static final long SWEEP_MILLIS = 500;

    private final ServerSocketChannel listener;
    private final String address;
    private final ClusterSecret secret;
    private final boolean encrypt;
    private final TransportCounters counters;
    private final BiConsumer<SocketChannel, FrameCipher> authenticated;
    private final Selector selector;
    private final UnauthenticatedLimits limits = new UnauthenticatedLimits();
    private final Thread thread;
    private volatile boolean open = true;

    /** @param encrypt whether this endpoint asks every connection to be encrypted */
    Gatekeeper(ServerSocketChannel listener, String address, ClusterSecret secret, boolean encrypt,
               TransportCounters counters, BiConsumer<SocketChannel, FrameCipher> authenticated) throws IOException {
        this.listener = listener;
        this.address = address;
        this.secret = secret;
        this.encrypt = encrypt;
        this.counters = counters;
        this.authenticated = authenticated;
        this.selector = Selector.open();
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
        this.thread = DaemonThreads.create("dist-transport-accept " + address, this::run);
    }

    void start() {
        thread.start();
    }

    /** Stops accepting and closes the connections still authenticating; the port is free when this returns. */
    void close() {
        open = false;
        selector.wakeup();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        try {
            while (open) {
                selector.select(SWEEP_MILLIS);
                List<PendingHandshake> handOn = new ArrayList<>();
                for (SelectionKey key : selector.selectedKeys()) {
                    if (key.isValid() && key.isAcceptable()) {
                        acceptAll();
                    } else if (key.isValid()) {
                        advance(key, handOn);
                    }
                }
                selector.selectedKeys().clear();
                closeExpired();
                if (!handOn.isEmpty()) {
                    selector.selectNow(); // deregisters the cancelled keys, so the channels may block again
                    handOn.forEach(this::handOn);
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (open) {
                Log.warn("endpoint " + address + " stopped accepting connections: " + e);
            }
        } finally {
            closeAll();
        }
    }

    private void acceptAll() throws IOException {
        SocketChannel channel;
        while ((channel = listener.accept()) != null) {
            try {
                PendingHandshake pending = PendingHandshake.accepting(channel, secret, Endpoint.HANDSHAKE_MAGIC,
                        encrypt, System.nanoTime());
                if (!limits.admit(pending.remote())) {
                    reject(channel, "too many connections waiting to authenticate (at most "
                            + UnauthenticatedLimits.PER_ADDRESS + " per address, " + UnauthenticatedLimits.TOTAL + " in all)");
                    continue;
                }
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ, pending);
            } catch (IOException e) {
                close(channel); // the peer went away while being accepted
            }
        }
    }

    private void advance(SelectionKey key, List<PendingHandshake> handOn) {
        PendingHandshake pending = (PendingHandshake) key.attachment();
        Handshake.Status status;
        try {
            status = pending.advance();
        } catch (IOException e) {
            forget(key, pending);
            Log.debug("a connection from " + pending.remote() + " ended before it authenticated: " + e.getMessage());
            return;
        }
        switch (status) {
            case CONTINUE -> key.interestOps(pending.wantsWrite() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
            case AUTHENTICATED -> {
                key.cancel();
                limits.release(pending.remote());
                handOn.add(pending);
            }
            case FAILED -> {
                forget(key, pending);
                Log.warn("closed a connection from " + pending.remote() + ": " + pending.failure());
            }
        }
    }

    private void handOn(PendingHandshake authenticated) {
        SocketChannel channel = authenticated.channel();
        try {
            channel.configureBlocking(true);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            this.authenticated.accept(channel, authenticated.cipher(false));
        } catch (IOException e) {
            close(channel);
        }
    }

    private void closeExpired() {
        long now = System.nanoTime();
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof PendingHandshake pending && key.isValid() && pending.expired(now)) {
                forget(key, pending);
                Log.debug("closed a connection from " + pending.remote() + " that did not authenticate within "
                        + UnauthenticatedLimits.TIMEOUT.toSeconds() + " s");
            }
        }
    }

    /** Counted before the close, so that whoever sees the close sees the count. */
    private void forget(SelectionKey key, PendingHandshake pending) {
        counters.rejected.increment();
        key.cancel();
        limits.release(pending.remote());
        close(pending.channel());
    }

    private void reject(SocketChannel channel, String why) {
        counters.rejected.increment();
        Log.debug("closed a connection at once: " + why);
        close(channel);
    }

    private void closeAll() {
        try {
            for (SelectionKey key : selector.keys()) {
                key.channel().close();
            }
            selector.close();
        } catch (IOException | ClosedSelectorException e) {
            // closing: nothing left to do with the sockets
        }
    }

    private static void close(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing: nothing left to do with the socket
        }
    }
}
