package dist.mpi;

import dist.transport.Log;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The device of ranks in separate processes. There is no receiving thread: a rank's thread that
 * waits inside an MPI call reads the sockets itself ({@link #progress}), so a message that
 * arrives wakes exactly the thread that wants it — one wake-up per message, as with a plain
 * blocking socket, instead of a reader thread's and then the waiter's. As MPI allows, messages
 * are received only while the rank is inside MPI (weak progress); a sender whose socket is full
 * receives while it waits, so two ranks sending large messages to each other cannot block each
 * other.
 *
 * <p>One TCP connection per pair of ranks, opened by whichever sends first and then used both ways
 * (each message then carries the acknowledgement of the last one the other way). If both open one
 * at once, each keeps sending on the one it chose first, so its messages stay in order, and reads
 * both. A connection opens with a hello carrying the cluster token and the opener's rank. Frames:
 * {@code [payload length][context, source, tag, elements, flags, syncId][payload]}, written through a
 * native buffer of the link's, so a small message is one system call.
 */
public final class SocketDevice implements Device {
    private static final byte[] MAGIC = "dmp1".getBytes(StandardCharsets.US_ASCII);
    private static final int HELLO_BYTES = 4 + 8 + 4;
    private static final int HEAD_BYTES = 4 + MessageHeader.WIRE_BYTES;
    private static final int MAX_PAYLOAD = Integer.MAX_VALUE - 64;
    private static final int OUT_BUFFER_BYTES = 256 * 1024;
    private static final long BUSY_PEER_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final int rank;
    private final long token;
    private final List<InetSocketAddress> ranks;
    private final Consumer<Message> sink;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final ReentrantLock progressLock = new ReentrantLock();
    private final Queue<Link> toRegister = new ConcurrentLinkedQueue<>();
    private final Link[] sendingLinks;
    private volatile boolean open = true;

    /** One connection: its reading state (owned by whoever holds the progress lock) and its write lock. */
    private final class Link {
        final SocketChannel channel;
        final Object writeLock = new Object();
        final ByteBuffer out = ByteBuffer.allocateDirect(OUT_BUFFER_BYTES);
        int peer;
        ByteBuffer head;
        ByteBuffer body;
        MessageHeader header;

        Link(SocketChannel channel, int peer) {
            this.channel = channel;
            this.peer = peer;
            this.head = peer < 0 ? ByteBuffer.allocate(HELLO_BYTES) : ByteBuffer.allocateDirect(HEAD_BYTES);
        }
    }

    public SocketDevice(int rank, long token, ServerSocketChannel listener, List<InetSocketAddress> ranks,
                        Consumer<Message> sink) throws IOException {
        this.rank = rank;
        this.token = token;
        this.ranks = List.copyOf(ranks);
        this.sink = sink;
        this.sendingLinks = new Link[ranks.size()];
        this.selector = Selector.open();
        this.listener = listener;
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    // ---- sending ------------------------------------------------------------------------------

    @Override
    public void send(int dest, MessageHeader header, byte[] payload) throws IOException {
        Link link = sendingLink(dest);
        synchronized (link.writeLock) {
            // Everything goes through the link's own native buffer, a slice at a time: each byte is
            // copied once. (Handing the JDK a heap buffer on a non-blocking socket copies all that
            // is left on every partial write.)
            ByteBuffer out = link.out.clear();
            out.putInt(payload.length)
                    .putInt(header.context()).putInt(header.source()).putInt(header.tag())
                    .putInt(header.elements()).putInt(header.flags()).putLong(header.syncId());
            int sent = 0;
            do {
                int slice = Math.min(out.remaining(), payload.length - sent);
                out.put(payload, sent, slice);
                sent += slice;
                out.flip();
                while (out.hasRemaining()) {
                    if (link.channel.write(out) == 0) {
                        // The peer's buffer is full: receive meanwhile, so that a peer that is itself
                        // blocked sending to this rank can go on. Nothing is written from inside
                        // progress (acknowledgements wait for the messenger), so this frame stays whole.
                        progress(BUSY_PEER_PAUSE_NANOS);
                    }
                }
                out.clear();
            } while (sent < payload.length);
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
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES).put(MAGIC).putLong(token).putInt(rank).flip();
        while (hello.hasRemaining()) {
            channel.write(hello);
        }
        channel.configureBlocking(false);
        Link link = new Link(channel, dest);
        register(link);
        return adopt(dest, link);
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
            for (Link link; (link = toRegister.poll()) != null; ) {
                link.channel.register(selector, SelectionKey.OP_READ, link);
            }
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
                } else if (key.isReadable()) {
                    read((Link) key.attachment(), key);
                }
            }
            selector.selectedKeys().clear();
            return true;
        } finally {
            progressLock.unlock();
        }
    }

    private void accept() throws IOException {
        SocketChannel channel;
        while ((channel = listener.accept()) != null) {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ, new Link(channel, -1));
        }
    }

    /** Reads what the link has, delivering each complete message; the link keeps partial ones. */
    private void read(Link link, SelectionKey key) {
        try {
            while (true) {
                ByteBuffer target = link.body != null ? link.body : link.head;
                int n = link.channel.read(target);
                if (n < 0) {
                    close(key, null); // the other rank finished
                    return;
                }
                if (target.hasRemaining()) {
                    return; // wait for more
                }
                if (link.peer < 0) {
                    if (!hello(link, key)) {
                        return;
                    }
                } else if (link.body == null) {
                    if (!header(link, key)) {
                        return;
                    }
                } else {
                    deliver(link);
                }
            }
        } catch (IOException e) {
            close(key, open ? "connection with rank " + link.peer + " ended: " + e.getMessage() : null);
        }
    }

    private boolean hello(Link link, SelectionKey key) {
        ByteBuffer hello = link.head.flip();
        byte[] magic = new byte[MAGIC.length];
        hello.get(magic);
        long theirToken = hello.getLong();
        int from = hello.getInt();
        if (!Arrays.equals(magic, MAGIC) || theirToken != token || from < 0 || from >= ranks.size()) {
            close(key, "refused a connection that is not from a rank of this job (wrong magic, cluster secret or rank)");
            return false;
        }
        link.peer = from;
        link.head = ByteBuffer.allocateDirect(HEAD_BYTES);
        adopt(from, link);
        return true;
    }

    private boolean header(Link link, SelectionKey key) {
        ByteBuffer head = link.head.flip();
        int length = head.getInt();
        if (length < 0 || length > MAX_PAYLOAD) {
            close(key, "dropped the connection with rank " + link.peer + ": message length " + length + " is out of bounds");
            return false;
        }
        link.header = new MessageHeader(head.getInt(), head.getInt(), head.getInt(), head.getInt(), head.getInt(),
                head.getLong());
        link.body = ByteBuffer.wrap(new byte[length]);
        link.head.clear();
        if (length == 0) {
            deliver(link);
        }
        return true;
    }

    private void deliver(Link link) {
        byte[] payload = link.body.array();
        MessageHeader header = link.header;
        link.body = null;
        link.header = null;
        sink.accept(new Message(header, payload));
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
