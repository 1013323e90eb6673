package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Messages larger than a piece ({@link FrameChannel#PIECE_BYTES}) and larger than the 64 MiB that
 * was once the frame limit: they travel in pieces and arrive whole, in clear and encrypted, both
 * ways (the reply is as large as the request).
 */
class LargeFrameTest {
    private static final int RAW = 104;
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final Endpoints endpoints = new Endpoints();

    @AfterEach
    void closeEndpoints() {
        endpoints.close();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aMessageOfSeventyMebibytesArrivesWholeAndIsAnsweredInKind(boolean encrypt) throws Exception {
        int bytes = 70 << 20; // five pieces, the last one short
        Endpoint server = endpoints.open(endpoints.config().withEncryption(encrypt));
        server.registerRaw(RAW, m -> {
            ByteBuffer in = m.bodyBuffer();
            WireBuffer reply = new WireBuffer();
            for (int i = in.remaining() - 1; i >= 0; i--) { // reversed, so that the reply is not the request
                reply.appendByte(in.get(i));
            }
            return CompletableFuture.completedFuture(reply);
        });
        Endpoint client = endpoints.open(endpoints.config().withEncryption(encrypt));
        WireBuffer request = new WireBuffer();
        for (int i = 0; i < bytes; i++) {
            request.appendByte((byte) (i * 31 + (i >>> 20)));
        }

        ByteBuffer reply = client.request(server.address(), RAW, request, TIMEOUT).get().bodyBuffer();

        assertEquals(bytes, reply.remaining());
        for (int i = 0; i < bytes; i++) {
            int sent = bytes - 1 - i;
            if (reply.get(i) != (byte) (sent * 31 + (sent >>> 20))) {
                throw new AssertionError("byte " + i + " of the reply differs from byte " + sent + " of the request");
            }
        }
    }
}
