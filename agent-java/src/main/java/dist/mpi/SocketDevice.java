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
 * The device of ranks in separate processes: one TCP connection per ordered pair of ranks, opened
 * by the sender on its first message. The sending thread writes header and payload itself in one
 * gathering write; one reader thread per incoming connection hands complete messages to the
 * messenger. Connections open with a hello carrying the cluster token and the sender's rank.
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
            if (channel == null) {
                channel = connect(dest);
                outgoing[dest] = channel;
                headers[dest] = ByteBuffer.allocateDirect(4 + MessageHeader.WIRE_BYTES);
            }
        }
        // One lock per destination keeps each sender's messages to that rank in order.
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

    private SocketChannel connect(int dest) throws IOException {
        SocketChannel channel = SocketChannel.open(ranks.get(dest));
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES).put(MAGIC).putLong(token).putInt(rank).flip();
        while (hello.hasRemaining()) {
            channel.write(hello);
        }
        return channel;
    }

    private void accept() {
        while (open) {
            try {
                SocketChannel channel = listener.accept();
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                Thread reader = new Thread(() -> read(channel), "dist-mpi-in rank " + rank);
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                if (open) {
                    Log.warn("MPI rank " + rank + " stopped accepting connections: " + e);
                }
                return;
            }
        }
    }

    private void read(SocketChannel channel) {
        try (channel) {
            ByteBuffer hello = readFully(channel, ByteBuffer.allocate(HELLO_BYTES)).flip();
            byte[] magic = new byte[MAGIC.length];
            hello.get(magic);
            if (!java.util.Arrays.equals(magic, MAGIC) || hello.getLong() != token) {
                Log.warn("MPI rank " + rank + " refused a connection from " + channel.getRemoteAddress()
                        + ": not a rank of this job (wrong magic or cluster secret)");
                return;
            }
            int from = hello.getInt();
            ByteBuffer head = ByteBuffer.allocateDirect(4 + MessageHeader.WIRE_BYTES);
            while (open) {
                readFully(channel, head.clear()).flip();
                int length = head.getInt();
                if (length < 0 || length > MAX_PAYLOAD) {
                    Log.warn("MPI rank " + rank + " dropped the connection from rank " + from
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
            // the sending rank finished and closed its side
        } catch (IOException e) {
            if (open) {
                Log.debug("MPI rank " + rank + ": connection ended: " + e.getMessage());
            }
        }
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
