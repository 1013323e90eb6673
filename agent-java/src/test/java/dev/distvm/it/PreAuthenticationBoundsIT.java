package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Int32Value;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportConfig;
import dev.distvm.transport.TransportException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What peers that never authenticate cost a node's endpoint in a JVM of its own (256 MB heap):
 * announced frames are not allocated, idle sockets get no threads, and the node serves its cluster after.
 */
class PreAuthenticationBoundsIT {
    private static final int HUGE_FRAME = 64 << 20;
    private static final long HEAP_GROWTH_LIMIT = 10L << 20;

    private final ClusterSecret secret = ClusterSecret.random();
    private final List<Socket> sockets = new ArrayList<>();
    private Target target;

    @BeforeEach
    void startTarget() throws Exception {
        target = Target.start(secret);
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (target != null) {
            target.close();
        }
    }

    @Test
    void eightPeersAnnouncingHugeFramesGrowTheHeapByLessThan10Mb() throws Exception {
        long before = target.query("heap");
        // Half open as the attack did (the old magic and a 64 MiB length), half with this
        // protocol's magic followed by lengths where the nonce and the proof go.
        for (String magic : List.of("dst1", Endpoint.HANDSHAKE_MAGIC)) {
            for (int i = 0; i < 4; i++) {
                ByteBuffer announce = ByteBuffer.allocate(4 + 4 * 24).put(magic.getBytes(StandardCharsets.US_ASCII));
                while (announce.hasRemaining()) {
                    announce.putInt(HUGE_FRAME);
                }
                Socket socket = connect("127.0.0.1");
                socket.getOutputStream().write(announce.array());
            }
        }
        // Until the node has turned all 8 away, or what they cost shows; the peak catches arrays
        // that an out-of-memory error has freed again.
        long[] peak = {before};
        Deadline.await("the node has refused all 8, or its heap has grown", () -> {
            peak[0] = Math.max(peak[0], target.query("peak"));
            return target.query("rejected") >= 8 || peak[0] - before >= HEAP_GROWTH_LIMIT;
        });
        long after = target.query("heap");
        System.out.printf("heap used: %d bytes before, %d at most during the attack, %d after it%n", before, peak[0], after);

        assertTrue(Math.max(peak[0], after) - before < HEAP_GROWTH_LIMIT, "heap grew from " + before + " to "
                + Math.max(peak[0], after) + " bytes\n" + target.output());
        assertServesAMember();
    }

    @Test
    void aThousandIdleSocketsLeaveFewerThan100ThreadsAndAMemberIsServedAfter() throws Exception {
        // From 16 loopback addresses, as from 16 hosts: 64 per address are within the limit of each.
        for (int i = 0; i < 1000; i++) {
            connect("127.0.0." + (1 + i % 16));
        }
        Deadline.await("the node has accepted or refused all 1,000, or has 100 threads",
                () -> acceptedOrRefusedAll(1000) || target.threads() >= 100);

        long threads = target.threads();
        System.out.printf("%d threads with 1,000 idle sockets open%n", threads);
        assertTrue(threads < 100, threads + " threads with 1,000 idle sockets open\n" + target.output());
        assertServesAMember(); // once the idle ones have timed out, if they fill the limits
        assertTrue(target.threads() < 100, target.threads() + " threads after the member was served");
    }

    /** Idle sockets beyond the limits are refused at once; those within them after the authentication timeout. */
    private boolean acceptedOrRefusedAll(int opened) throws Exception {
        return target.query("rejected") >= opened - 256;
    }

    private void assertServesAMember() throws Exception {
        try (Endpoint member = Endpoint.open(TransportConfig.loopback(secret))) {
            int answer = Deadline.await("a member is served", () -> {
                try {
                    return member.call(target.address(), EndpointTarget.ECHO, Int32Value.of(1), Int32Value.parser(),
                            Duration.ofSeconds(30)).getValue();
                } catch (TransportException refusedWhileTheLimitsAreFull) {
                    return null;
                }
            });
            assertEquals(2, answer);
        }
    }

    private Socket connect(String from) throws IOException {
        Socket socket = new Socket();
        sockets.add(socket);
        socket.bind(new InetSocketAddress(from, 0));
        socket.connect(target.socketAddress());
        return socket;
    }
}
