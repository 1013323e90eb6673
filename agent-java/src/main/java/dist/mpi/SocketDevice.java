package dist.mpi;

import dist.transport.Log;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * The device of ranks in separate processes: one TCP connection per pair of ranks, opened by
 * whichever sends first and then used by both for both directions. Two-way traffic on one socket
 * lets each message carry the acknowledgement of the last one the other way; with a socket per
 * direction every message also cost a bare ACK packet, which on this machine tripled the
 * round-trip time. If both ranks open a connection at once, each keeps sending on the one it
 * chose first (so its messages stay in order) and reads both. The sending thread writes header
 * and payload itself in one gathering write; one reader thread per connection hands complete
 * messages to the messenger. A connection opens with a hello carrying the cluster token and the
 * opener's rank.
 */
public final class SocketDevice implements Device {
    private static final byte[] MAGIC = "dmp1".getBytes(StandardCharsets.US_ASCII);
    private static final int HELLO_BYTES = 4 + 8 + 4;
    private static final int MAX_PAYLOAD = Integer.MAX_VALUE - 64;

    private final int rank;
    private final long token;
    private final ServerSocketChannel listener;
    private final List<InetSocketAddress> ranks;
    private final Consumer<Message> sink;
    private final SocketChannel[] outgoing;
    private final ByteBuffer[] headers;
    private volatile boolean open = true;

    public SocketDevice(int rank, long token, ServerSocketChannel listener, List<InetSocketAddress> ranks,
                        Consumer<Message> sink) {
        this.rank = rank;
        this.token = token;
        this.listener = listener;
        this.ranks = List.copyOf(ranks);
        this.sink = sink;
        this.outgoing = new SocketChannel[ranks.size()];
        this.headers = new ByteBuffer[ranks.size()];
        Thread acceptor = new Thread(this::accept, "dist-mpi-accept rank " + rank);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @Override
    public void send(int dest, MessageHeader header, byte[] payload) throws IOException {
        SocketChannel channel;
        synchronized (this) {
            channel = outgoing[dest];
        }
        if (channel == null) {
            channel = adopt(dest, connect(dest));
        }
        // One lock per channel keeps each rank's messages to a peer in order.
        synchronized (channel) {
            ByteBuffer head = headers[dest].clear();
            head.putInt(payload.length)
                    .putInt(header.context()).putInt(header.source()).putInt(header.tag())
                    .putInt(header.elements()).putInt(header.flags()).putLong(header.syncId())
                    .flip();
            ByteBuffer[] frame = {head, ByteBuffer.wrap(payload)};
            while (frame[1].hasRemaining() || head.hasRemaining()) {
                channel.write(frame);
            }
        }
    }

    /**
     * Makes {@code channel} the one this rank sends to {@code peer} on, unless one was chosen
     * already; returns the chosen one. Either way the channel is read.
     */
    private SocketChannel adopt(int peer, SocketChannel channel) {
        SocketChannel chosen;
        synchronized (this) {
            if (outgoing[peer] == null) {
                outgoing[peer] = channel;
                headers[peer] = ByteBuffer.allocateDirect(4 + MessageHeader.WIRE_BYTES);
            }
            chosen = outgoing[peer];
        }
        return chosen;
    }

    private SocketChannel connect(int dest) throws IOException {
        SocketChannel channel = SocketChannel.open(ranks.get(dest));
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES).put(MAGIC).putLong(token).putInt(rank).flip();
        while (hello.hasRemaining()) {
            channel.write(hello);
        }
        startReader(channel, dest);
        return channel;
    }

    private void accept() {
        while (open) {
            try {
                SocketChannel channel = listener.accept();
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                startReader(channel, -1);
            } catch (IOException e) {
                if (open) {
                    Log.warn("MPI rank " + rank + " stopped accepting connections: " + e);
                }
                return;
            }
        }
    }

    /** @param peer the rank at the other end, or -1 when the connection was accepted and its hello is still to come */
    private void startReader(SocketChannel channel, int peer) {
        Thread reader = new Thread(() -> read(channel, peer), "dist-mpi-in rank " + rank);
        reader.setDaemon(true);
        reader.start();
    }

    private void read(SocketChannel channel, int knownPeer) {
        try (channel) {
            int from = knownPeer;
            if (from < 0) {
                from = readHello(channel);
                if (from < 0) {
                    return;
                }
                adopt(from, channel);
            }
            ByteBuffer head = ByteBuffer.allocateDirect(4 + MessageHeader.WIRE_BYTES);
            while (open) {
                readFully(channel, head.clear()).flip();
                int length = head.getInt();
                if (length < 0 || length > MAX_PAYLOAD) {
                    Log.warn("MPI rank " + rank + " dropped the connection with rank " + from
                            + ": message length " + length + " is out of bounds");
                    return;
                }
                MessageHeader header = new MessageHeader(head.getInt(), head.getInt(), head.getInt(), head.getInt(),
                        head.getInt(), head.getLong());
                byte[] payload = new byte[length];
                readFully(channel, ByteBuffer.wrap(payload));
                sink.accept(new Message(header, payload));
            }
        } catch (EOFException e) {
            // the other rank finished and closed the connection
        } catch (IOException e) {
            if (open) {
                Log.debug("MPI rank " + rank + ": connection ended: " + e.getMessage());
            }
        }
    }

    /** The opener's rank, or -1 (and a log line) when it is not a rank of this job. */
    private int readHello(SocketChannel channel) throws IOException {
        ByteBuffer hello = readFully(channel, ByteBuffer.allocate(HELLO_BYTES)).flip();
        byte[] magic = new byte[MAGIC.length];
        hello.get(magic);
        int from = -1;
        if (java.util.Arrays.equals(magic, MAGIC) && hello.getLong() == token) {
            from = hello.getInt();
        }
        if (from < 0 || from >= ranks.size()) {
            Log.warn("MPI rank " + rank + " refused a connection from " + channel.getRemoteAddress()
                    + ": not a rank of this job (wrong magic, cluster secret or rank)");
            return -1;
        }
        return from;
    }

    private static ByteBuffer readFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new EOFException();
            }
        }
        return buffer;
    }

    @Override
    public void close() {
        open = false;
        try {
            listener.close();
        } catch (IOException e) {
            // closing
        }
        synchronized (this) {
            for (SocketChannel channel : outgoing) {
                if (channel != null) {
                    try {
                        channel.close();
                    } catch (IOException e) {
                        // closing
                    }
                }
            }
        }
    }
}
