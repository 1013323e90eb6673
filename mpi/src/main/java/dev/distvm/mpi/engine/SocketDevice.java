package dev.distvm.mpi.engine;

import dev.distvm.common.Log;
import dev.distvm.transport.AuthenticationException;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Handshake;
import dev.distvm.transport.PendingHandshake;
import dev.distvm.transport.UnauthenticatedLimits;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The device of ranks in separate processes. There is no receiving thread: a rank's thread that
 * waits inside an MPI call reads the sockets itself ({@link #progress}), so a message that
 * arrives wakes exactly the thread that wants it — one wake-up per message, as with a plain
 * blocking socket, instead of a reader thread's and then the waiter's (or none, when the waiter
 * was still spinning: {@link SpinBeforeWaiting}). As MPI allows, messages
 * are received only while the rank is inside MPI (weak progress); a sender whose socket is full
 * receives while it waits, so two ranks sending large messages to each other cannot block each
 * other.
 *
 * <p>One TCP connection per pair of ranks, opened by whichever sends first and then used both ways
 * (each message then carries the acknowledgement of the last one the other way). If both open one
 * at once, each keeps sending on the one it chose first, so its messages stay in order, and reads
 * both. A connection opens with the transport's mutual proof of the cluster secret
 * ({@link Handshake}, run on this device's selector for connections it accepts, within
 * {@link UnauthenticatedLimits}; checked for time-outs whenever a rank receives), then the opener's
 * rank. Frames:
 * {@code [payload length][context, source, tag, elements, flags, syncId][payload]}, written and read
 * through native buffers of the link's, so a small message is one system call each way. A payload is
 * encoded straight into the write buffer and, when a posted receive wants it, decoded straight from
 * the read buffer into the receive's array: a large message is copied as often as with a plain
 * socket and a {@code byte[]}.
 */
public final class SocketDevice implements Device {
    static final String MAGIC = "dmp2";
    static final int HELLO_BYTES = 4;
    private static final int HEAD_BYTES = 4 + MessageHeader.WIRE_BYTES;
    private static final int MAX_PAYLOAD = Integer.MAX_VALUE - 64;
    private static final int BUFFER_BYTES = 256 * 1024;
    private static final long BUSY_PEER_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final int rank;
    private final ClusterSecret secret;
    private final UnauthenticatedLimits limits = new UnauthenticatedLimits();
    private final List<InetSocketAddress> ranks;
    private final Inbox inbox;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final ReentrantLock progressLock = new ReentrantLock();
    private final Queue<Link> toRegister = new ConcurrentLinkedQueue<>();
    private final Link[] sendingLinks;
    private volatile boolean open = true;

    /** One connection: its reading state (owned by whoever holds the progress lock) and its write lock. */
    private static final class Link {
        final SocketChannel channel;
        final Object writeLock = new Object();
        final ByteBuffer out = ByteBuffer.allocateDirect(BUFFER_BYTES);
        /** Bytes read and not yet handed on, between position and limit. */
        final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER_BYTES).flip();
        /** Set when the channel joins the selector (inside progress). */
        SelectionKey key;
        /** Until the peer that opened this link has proved the secret; null after, and on links this rank opened. */
        PendingHandshake handshake;
        /** -1 until the hello has said who the peer is. */
        int peer;
        /** Takes the payload of the frame being read; null between frames. */
        Inbox.Intake intake;
        int payloadLeft;

        Link(SocketChannel channel, int peer) {
            this.channel = channel;
            this.peer = peer;
        }
    }

    public SocketDevice(int rank, ClusterSecret secret, ServerSocketChannel listener, List<InetSocketAddress> ranks,
                        Inbox inbox) throws IOException {
        this.rank = rank;
        this.secret = secret;
        this.ranks = List.copyOf(ranks);
        this.inbox = inbox;
        this.sendingLinks = new Link[ranks.size()];
        this.selector = Selector.open();
        this.listener = listener;
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    // ---- sending ------------------------------------------------------------------------------

    @Override
    public void send(int dest, MessageHeader header, Payload payload) throws IOException {
        Link link = sendingLink(dest);
        synchronized (link.writeLock) {
            // Everything goes through the link's own native buffer, a slice at a time, and the payload
            // is encoded straight into it: each byte is copied once. (Handing the JDK a heap buffer on
            // a non-blocking socket copies all that is left on every partial write.)
            ByteBuffer out = link.out.clear();
            int length = payload.size();
            out.putInt(length)
                    .putInt(header.context()).putInt(header.source()).putInt(header.tag())
                    .putInt(header.elements()).putInt(header.flags()).putLong(header.syncId());
            int sent = 0;
            do {
                sent += payload.write(sent, out);
                out.flip();
                while (out.hasRemaining()) {
                    if (write(link, dest, out) == 0) {
                        awaitRoom(link);
                    }
                }
                out.clear();
            } while (sent < length);
        }
    }

    /** A write to a link that has closed says which rank's (its exception says only "null"). */
    private static int write(Link link, int dest, ByteBuffer out) throws IOException {
        try {
            return link.channel.write(out);
        } catch (ClosedChannelException e) {
            throw new IOException("the connection with rank " + dest + " has closed (that rank ended or died)", e);
        }
    }

    private Link sendingLink(int dest) throws IOException {
        synchronized (sendingLinks) {
            if (sendingLinks[dest] != null) {
                return sendingLinks[dest];
            }
        }
        SocketChannel channel = SocketChannel.open(ranks.get(dest));
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.configureBlocking(false);
        try {
            open(channel, dest);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        Link link = new Link(channel, dest);
        register(link);
        return adopt(dest, link);
    }

    /**
     * Proves the secret to rank {@code dest} and says who this rank is. The wait receives
     * meanwhile, as {@link #awaitRoom} does: {@code dest} may be opening a link to this rank at
     * the same moment, and answers only from inside MPI. It has no time limit, as a send to a rank
     * that has not entered MPI yet has none: {@code dest} is a rank of this job (its address came
     * from the job's coordinator), and if it dies its socket ends the wait.
     */
    private void open(SocketChannel channel, int dest) throws IOException {
        PendingHandshake handshake = PendingHandshake.opening(channel, secret, MAGIC, false, System.nanoTime());
        Handshake.Status status;
        while ((status = handshake.advance()) == Handshake.Status.CONTINUE) {
            if (!open) {
                throw new IOException("the connection to MPI rank " + dest + " was closed while it authenticated");
            }
            receiveWhileWaiting();
        }
        if (status == Handshake.Status.FAILED) {
            throw new AuthenticationException("MPI rank " + dest, handshake.failure());
        }
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES).putInt(rank).flip();
        while (hello.hasRemaining()) {
            if (channel.write(hello) == 0) {
                receiveWhileWaiting();
            }
        }
    }

    private void receiveWhileWaiting() throws IOException {
        if (!progressLock.tryLock()) {
            LockSupport.parkNanos(BUSY_PEER_PAUSE_NANOS);
            return;
        }
        try {
            receive(BUSY_PEER_PAUSE_NANOS);
        } finally {
            progressLock.unlock();
        }
    }

    /** The link this rank sends to {@code peer} on: {@code link} unless one was chosen already. */
    private Link adopt(int peer, Link link) {
        synchronized (sendingLinks) {
            if (sendingLinks[peer] == null) {
                sendingLinks[peer] = link;
            }
            return sendingLinks[peer];
        }
    }

    /** Channels join the selector inside progress: registering while another thread selects would block. */
    private void register(Link link) {
        toRegister.add(link);
        selector.wakeup();
    }

    // ---- receiving ----------------------------------------------------------------------------

    @Override
    public boolean progress(long timeoutNanos) throws IOException {
        if (!progressLock.tryLock()) {
            // another thread of this rank is receiving and delivers for everyone
            LockSupport.parkNanos(Math.max(1, Math.min(timeoutNanos, BUSY_PEER_PAUSE_NANOS)));
            return true;
        }
        try {
            receive(timeoutNanos);
            return true;
        } finally {
            progressLock.unlock();
        }
    }

    /**
     * The peer's socket buffer is full: wait until it takes bytes again, receiving meanwhile, so
     * that a peer that is itself blocked sending to this rank can go on. Nothing is written from
     * inside progress (acknowledgements wait for the messenger), so the frame being sent stays whole.
     * Waking on writability matters: a wait for input alone sleeps out its whole timeout while the
     * peer drains the buffer without answering, which cost a millisecond per stall of a large message.
     */
    private void awaitRoom(Link link) throws IOException {
        if (!progressLock.tryLock()) {
            LockSupport.parkNanos(BUSY_PEER_PAUSE_NANOS); // the receiving thread's select does not wait for our room
            return;
        }
        try {
            registerNewLinks();
            SelectionKey key = link.key;
            if (key == null || !key.isValid()) {
                throw new IOException("connection with rank " + link.peer + " is closed");
            }
            key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            try {
                receive(BUSY_PEER_PAUSE_NANOS);
            } finally {
                if (key.isValid()) {
                    key.interestOps(SelectionKey.OP_READ);
                }
            }
        } finally {
            progressLock.unlock();
        }
    }

    /** Selects and reads what arrived; the caller holds the progress lock. */
    private void receive(long timeoutNanos) throws IOException {
        registerNewLinks();
        if (timeoutNanos <= 0) {
            selector.selectNow();
        } else {
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
        }
        for (SelectionKey key : selector.selectedKeys()) {
            if (!key.isValid()) {
                continue;
            }
            if (key.isAcceptable()) {
                accept();
            } else if (((Link) key.attachment()).handshake != null) {
                authenticate((Link) key.attachment(), key);
            } else if (key.isReadable()) {
                read((Link) key.attachment(), key);
            }
        }
        selector.selectedKeys().clear();
        closeExpiredHandshakes();
    }

    private void registerNewLinks() throws IOException {
        for (Link link; (link = toRegister.poll()) != null; ) {
            link.key = link.channel.register(selector, SelectionKey.OP_READ, link);
        }
    }

    private void accept() throws IOException {
        SocketChannel channel;
        while ((channel = listener.accept()) != null) {
            PendingHandshake handshake;
            try {
                handshake = PendingHandshake.accepting(channel, secret, MAGIC, false, System.nanoTime());
            } catch (IOException e) {
                channel.close(); // gone while being accepted
                continue;
            }
            if (!limits.admit(handshake.remote())) {
                Log.debug("MPI rank " + rank + ": closed a connection at once: too many waiting to authenticate");
                channel.close();
                continue;
            }
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            Link link = new Link(channel, -1);
            link.handshake = handshake;
            link.key = channel.register(selector, SelectionKey.OP_READ, link);
        }
    }

    /** Advances an accepted link's handshake; once it has authenticated, the link reads frames. */
    private void authenticate(Link link, SelectionKey key) {
        Handshake.Status status;
        try {
            status = link.handshake.advance();
        } catch (IOException e) {
            refuse(link, key, "a connection ended before it authenticated: " + e.getMessage());
            return;
        }
        switch (status) {
            case CONTINUE -> key.interestOps(link.handshake.wantsWrite() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
            case FAILED -> refuse(link, key, "refused a connection: " + link.handshake.failure());
            case AUTHENTICATED -> {
                limits.release(link.handshake.remote());
                link.handshake = null;
                key.interestOps(SelectionKey.OP_READ);
                read(link, key); // the opener's rank may have come with the handshake's last bytes
            }
        }
    }

    private void closeExpiredHandshakes() {
        long now = System.nanoTime();
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Link link && link.handshake != null && link.handshake.expired(now)) {
                refuse(link, key, "closed a connection that did not authenticate within "
                        + UnauthenticatedLimits.TIMEOUT.toSeconds() + " s");
            }
        }
    }

    private void refuse(Link link, SelectionKey key, String why) {
        limits.release(link.handshake.remote());
        link.handshake = null;
        close(key, why);
    }

    /**
     * Reads what the link has and hands on every frame, a payload as its bytes come; the link keeps
     * what is left of a frame for the next call. A read that leaves room in the buffer has drained
     * the socket, so a small message costs one read.
     */
    private void read(Link link, SelectionKey key) {
        ByteBuffer in = link.in;
        try {
            boolean full;
            do {
                in.compact();
                int n = link.channel.read(in);
                full = n > 0 && !in.hasRemaining();
                in.flip();
                if (n < 0) {
                    close(key, null); // the other rank finished
                    return;
                }
                if (!frames(link, key)) {
                    return;
                }
            } while (full);
        } catch (IOException e) {
            close(key, open ? "connection with rank " + link.peer + " ended: " + e.getMessage() : null);
        }
    }

    /** Hands on what {@code link.in} holds; false when the link had to be closed. */
    private boolean frames(Link link, SelectionKey key) {
        ByteBuffer in = link.in;
        while (true) {
            if (link.peer < 0) {
                if (in.remaining() < HELLO_BYTES) {
                    return true;
                }
                if (!hello(link, key)) {
                    return false;
                }
                continue;
            }
            if (link.intake == null) {
                if (in.remaining() < HEAD_BYTES) {
                    return true;
                }
                int length = in.getInt(in.position());
                if (length < 0 || length > MAX_PAYLOAD) {
                    close(key, "dropped the connection with rank " + link.peer + ": message length " + length
                            + " is out of bounds");
                    return false;
                }
                if (in.remaining() < HEAD_BYTES + Math.min(length, ReceiveBuffer.PEEK)) {
                    return true;
                }
                in.getInt();
                MessageHeader header = new MessageHeader(in.getInt(), in.getInt(), in.getInt(), in.getInt(), in.getInt(),
                        in.getLong());
                link.intake = inbox.arriving(header, length, in);
                link.payloadLeft = length;
            }
            int end = in.limit();
            int start = in.position();
            in.limit(start + Math.min(in.remaining(), link.payloadLeft));
            link.intake.take(in);
            link.payloadLeft -= in.position() - start;
            in.limit(end);
            if (link.payloadLeft > 0) {
                return true; // the rest is still on its way
            }
            Inbox.Intake complete = link.intake;
            link.intake = null;
            complete.complete();
        }
    }

    private boolean hello(Link link, SelectionKey key) {
        int from = link.in.getInt();
        if (from < 0 || from >= ranks.size()) {
            close(key, "refused a connection that names no rank of this job (rank " + from + ")");
            return false;
        }
        link.peer = from;
        adopt(from, link);
        return true;
    }

    private void close(SelectionKey key, String why) {
        if (why != null) {
            Log.warn("MPI rank " + rank + ": " + why);
        }
        key.cancel();
        try {
            key.channel().close();
        } catch (IOException e) {
            // closing
        }
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public void close() {
        open = false;
        progressLock.lock();
        try {
            for (SelectionKey key : selector.keys()) {
                try {
                    key.channel().close();
                } catch (IOException e) {
                    // closing
                }
            }
            selector.close();
        } catch (IOException e) {
            // closing
        } finally {
            progressLock.unlock();
        }
    }
}
