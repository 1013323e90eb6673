package dev.distvm.transport;

import static dev.distvm.transport.Endpoints.ECHO;
import static dev.distvm.transport.Endpoints.UNHANDLED;
import static dev.distvm.transport.Endpoints.number;
import static dev.distvm.transport.Endpoints.numberIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.BytesValue;
import com.google.protobuf.Int32Value;
import com.google.protobuf.MessageLite;
import com.google.protobuf.StringValue;
import dev.distvm.transport.proto.ErrorCode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Request/reply between two endpoints on loopback, and how a failed request is answered. */
class EndpointRequestTest {
    private static final int PROBE = 110;

    private final Endpoints endpoints = new Endpoints();

    @AfterEach
    void closeEndpoints() {
        endpoints.close();
    }

    @Test
    void requestGetsItsDecodedReplyWithBothNodeIdsStamped() {
        Endpoint server = endpoints.open();
        Endpoint client = endpoints.open();
        server.nodeId(3);
        client.nodeId(7);
        AtomicInteger senderSeenByServer = new AtomicInteger(-1);
        server.registerImmediate(ECHO, m -> {
            senderSeenByServer.set(m.sender());
            return number(numberIn(m) + 1);
        });

        Inbound reply = Await.result(client.request(server.address(), ECHO, number(41)));

        assertEquals(42, numberIn(reply));
        assertEquals(ECHO, reply.type());
        assertEquals(3, reply.sender(), "the reply carries the server's node id");
        assertEquals(7, senderSeenByServer.get(), "the request carries the client's node id");
        assertEquals(43, client.call(server.address(), ECHO, number(42), Int32Value.parser()).getValue());
    }

    @Test
    void requestForATypeWithoutHandlerIsAnsweredUnknownTypeAndTheEndpointKeepsServing() {
        Endpoint server = endpoints.openEchoServer();
        Endpoint client = endpoints.open();

        RemoteErrorException error = Await.failure(
                client.request(server.address(), UNHANDLED, number(1)), RemoteErrorException.class);

        assertEquals(ErrorCode.UNKNOWN_TYPE, error.code());
        assertTrue(error.getMessage().contains("does not handle that kind of message"), error.getMessage());
        assertEquals(2, client.call(server.address(), ECHO, number(1), Int32Value.parser()).getValue());
    }

    /** Handlers that fail in each way the transport distinguishes, with what the requester must see. */
    static Stream<Arguments> failingHandlers() {
        Handler.Immediate refuses = m -> {
            throw new Handler.RefusedException("the moon is not full");
        };
        Handler.Immediate throwsUnexpectedly = m -> {
            throw new IllegalStateException("handler bug 17");
        };
        // A proto3 string must be UTF-8, so these bytes cannot decode as a StringValue.
        MessageLite notUtf8 = BytesValue.of(ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xfe}));
        Handler.Immediate decodesAString = m -> m.decode(StringValue.parser());
        return Stream.of(
                Arguments.of("refused", asHandler(refuses), number(1), ErrorCode.REFUSED, "the moon is not full"),
                Arguments.of("refused later", later(refuses), number(1), ErrorCode.REFUSED, "the moon is not full"),
                Arguments.of("threw", asHandler(throwsUnexpectedly), number(1), ErrorCode.HANDLER_FAILED, "handler bug 17"),
                Arguments.of("failed later", later(throwsUnexpectedly), number(1), ErrorCode.HANDLER_FAILED, "handler bug 17"),
                Arguments.of("bad body", asHandler(decodesAString), notUtf8, ErrorCode.BAD_BODY, "does not decode"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failingHandlers")
    void failingHandlerIsAnsweredWithTheMatchingErrorCodeAndTheEndpointKeepsServing(
            String description, Handler handler, MessageLite body, ErrorCode expected, String expectedText) {
        Endpoint server = endpoints.openEchoServer();
        server.register(PROBE, handler);
        Endpoint client = endpoints.open();

        RemoteErrorException error = Await.failure(client.request(server.address(), PROBE, body), RemoteErrorException.class);

        assertEquals(expected, error.code(), error.getMessage());
        assertTrue(error.getMessage().contains(expectedText), error.getMessage());
        assertEquals(2, client.call(server.address(), ECHO, number(1), Int32Value.parser()).getValue());
    }

    private static Handler asHandler(Handler.Immediate immediate) {
        return m -> CompletableFuture.completedFuture(immediate.handle(m));
    }

    /** The same outcome, reached on another thread after the handler has returned. */
    private static Handler later(Handler.Immediate immediate) {
        return m -> CompletableFuture.supplyAsync(() -> {
            try {
                return immediate.handle(m);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS));
    }

    @Test
    void asynchronousHandlerRepliesWhenItsFutureIsCompletedByAnotherThread() {
        Endpoint server = endpoints.open();
        CompletableFuture<Inbound> received = new CompletableFuture<>();
        CompletableFuture<MessageLite> answer = new CompletableFuture<>();
        server.register(PROBE, m -> {
            received.complete(m);
            return answer;
        });
        Endpoint client = endpoints.open();

        CompletableFuture<Inbound> reply = client.request(server.address(), PROBE, number(5));
        int asked = numberIn(Await.result(received));
        Thread completer = new Thread(() -> answer.complete(number(asked * 10)), "test-completer");
        completer.start();

        assertEquals(50, numberIn(Await.result(reply)));
    }

    @Test
    void requestWithAnotherClusterSecretFailsAuthenticationAndTheRightClusterIsStillServed() {
        Endpoint server = endpoints.openEchoServer();
        Endpoint stranger = endpoints.open(TransportConfig.loopback(ClusterSecret.of("another cluster")));
        Endpoint member = endpoints.open();

        CompletableFuture<Inbound> refused = stranger.request(server.address(), ECHO, number(1), Duration.ofSeconds(5));
        AuthenticationException error = Await.failure(refused, AuthenticationException.class);

        assertTrue(error.getMessage().contains("authentication failed"), error.getMessage());
        assertTrue(error.getMessage().contains(ClusterSecret.ENV), error.getMessage());
        assertEquals(2, member.call(server.address(), ECHO, number(1), Int32Value.parser()).getValue());
    }

    @Test
    void blockingCallFromInsideAHandlerFailsThatRequestInsteadOfDeadlocking() {
        Endpoint server = endpoints.openEchoServer();
        server.registerImmediate(PROBE, m -> server.call(server.address(), ECHO, number(1), Int32Value.parser()));
        Endpoint client = endpoints.open();

        RemoteErrorException error = Await.failure(client.request(server.address(), PROBE, number(1)), RemoteErrorException.class);

        assertEquals(ErrorCode.HANDLER_FAILED, error.code());
        assertTrue(error.getMessage().contains("reader thread"), error.getMessage());
    }

    @Test
    void replyOverTheFrameLimitIsAnsweredWithAnErrorRatherThanLeftUnanswered() {
        Endpoint server = endpoints.open(endpoints.config(1024));
        server.registerImmediate(PROBE, m -> BytesValue.of(ByteString.copyFrom(new byte[4096])));
        Endpoint client = endpoints.open();

        // A timeout much shorter than Await's bound: an answer that never comes surfaces as a
        // RequestTimeoutException, which is what this test rules out.
        CompletableFuture<Inbound> reply = client.request(server.address(), PROBE, number(1), Duration.ofSeconds(5));
        Throwable failure = Await.failure(reply, TransportException.class);

        assertNotEquals(RequestTimeoutException.class, failure.getClass(), failure.toString());
        assertTrue(failure instanceof RemoteErrorException, failure.toString());
    }

    @Test
    void registeringASecondHandlerForATypeIsRejected() {
        Endpoint server = endpoints.openEchoServer();

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> server.registerImmediate(ECHO, m -> number(0)));
        assertTrue(e.getMessage().contains(String.valueOf(ECHO)), e.getMessage());
    }
}
