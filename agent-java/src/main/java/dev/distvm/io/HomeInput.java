package dev.distvm.io;

import dev.distvm.common.DaemonThreads;
import dev.distvm.transport.Handler;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The home's {@code System.in}, read for worker threads ({@link RemoteInput} is their side). A read
 * may wait for the user as long as it likes, so reads run on a thread of their own, never on the
 * transport's reader threads, one at a time in the order the requests arrived, as reads of one
 * stream by several threads of one JVM would.
 *
 * <p>A request ({@code SPACE_INPUT}) is {@code [READ][int max]} or {@code [CLOSE]}; the reply is
 * {@code [DATA][the bytes read]} (at most {@code max}, what one read of the home's stream gave),
 * {@code [END]} at the end of the input, or {@code [FAILED][UTF-8 message]} when the home's read or
 * close threw an {@code IOException}.
 */
public final class HomeInput {
    static final byte READ = 0;
    static final byte CLOSE = 1;
    static final byte DATA = 0;
    static final byte END = 1;
    static final byte FAILED = 2;
    /** What one request may ask for; a worker's read of more gets this much (a read may return less). */
    static final int MAX_READ = 64 * 1024;

    private final ExecutorService reads = Executors.newSingleThreadExecutor(DaemonThreads.named("dist-home-input"));

    static byte[] readRequest(int max) {
        return ByteBuffer.allocate(1 + Integer.BYTES).put(READ).putInt(max).array();
    }

    static byte[] closeRequest() {
        return new byte[] {CLOSE};
    }

    /** Answers a worker's request, once the reads asked before it are answered. */
    public CompletableFuture<byte[]> request(byte[] request) throws Handler.RefusedException {
        if (request.length == 1 && request[0] == CLOSE) {
            return CompletableFuture.supplyAsync(HomeInput::close, reads);
        }
        if (request.length == 1 + Integer.BYTES && request[0] == READ) {
            int max = ByteBuffer.wrap(request, 1, Integer.BYTES).getInt();
            if (max >= 1 && max <= MAX_READ) {
                return CompletableFuture.supplyAsync(() -> read(max), reads);
            }
        }
        throw new Handler.RefusedException("not a System.in request: expected [READ][int 1.." + MAX_READ + "] or [CLOSE]");
    }

    /** The home's System.in at the time of the read: a program that set it in main reads the same everywhere. */
    private static byte[] read(int max) {
        byte[] reply = new byte[1 + max];
        try {
            int read = System.in.read(reply, 1, max);
            if (read < 0) {
                return new byte[] {END};
            }
            reply[0] = DATA;
            return Arrays.copyOf(reply, 1 + read);
        } catch (IOException e) {
            return failed(e);
        }
    }

    private static byte[] close() {
        try {
            System.in.close();
            return new byte[] {DATA};
        } catch (IOException e) {
            return failed(e);
        }
    }

    private static byte[] failed(IOException e) {
        byte[] text = String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8);
        byte[] reply = new byte[1 + text.length];
        reply[0] = FAILED;
        System.arraycopy(text, 0, reply, 1, text.length);
        return reply;
    }
}
