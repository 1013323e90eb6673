package dev.distvm.node;

import com.google.protobuf.ByteString;
import dev.distvm.node.proto.ClassReply;
import dev.distvm.node.proto.ClassRequest;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Handler;
import java.io.IOException;
import java.io.InputStream;

/**
 * The home's side of remote class loading (Ajents §3.2): serves class files and resources of the
 * application's class path to workers, with their SHA-256.
 */
final class ClassServer {
    private final ClassLoader applicationLoader;

    ClassServer(ClassLoader applicationLoader) {
        this.applicationLoader = applicationLoader;
    }

    /**
     * Answers on the transport's reader thread: a class path read is a read of a local jar or
     * directory, short enough not to stall the connection it arrived on.
     */
    static void serve(Endpoint endpoint, ClassLoader applicationLoader) {
        ClassServer server = new ClassServer(applicationLoader);
        endpoint.registerImmediate(NodeMessageType.CLASS_BYTES_VALUE, message ->
                server.lookUp(message.decode(ClassRequest.parser()).getResource()));
    }

    ClassReply lookUp(String resource) throws IOException, Handler.RefusedException {
        if (resource.isEmpty() || resource.startsWith("/") || resource.contains("..") || resource.contains("\\")) {
            throw new Handler.RefusedException("'" + resource + "' is not a class path resource name");
        }
        try (InputStream in = applicationLoader.getResourceAsStream(resource)) {
            if (in == null) {
                return ClassReply.newBuilder().setFound(false).build();
            }
            byte[] content = in.readAllBytes();
            return ClassReply.newBuilder()
                    .setFound(true)
                    .setContent(ByteString.copyFrom(content))
                    .setSha256(ByteString.copyFrom(ContentHash.sha256(content)))
                    .build();
        }
    }
}
