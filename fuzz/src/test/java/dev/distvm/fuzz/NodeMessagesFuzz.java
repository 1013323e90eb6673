package dev.distvm.fuzz;

import dev.distvm.node.proto.ClassReply;
import dev.distvm.node.proto.ClassRequest;
import dev.distvm.node.proto.InvokeResult;
import dev.distvm.node.proto.InvokeStatic;
import dev.distvm.node.proto.NodeReport;
import dev.distvm.node.proto.ReportRequest;
import dev.distvm.transport.proto.ErrorReply;
import java.util.List;

/** The nodes' protobuf messages ({@code node.proto}) and the transport's error reply. */
public final class NodeMessagesFuzz {
    private static final ProtobufBodies BODIES = new ProtobufBodies(List.of(ClassRequest.parser(), ClassReply.parser(),
            InvokeStatic.parser(), InvokeResult.parser(), ReportRequest.parser(), NodeReport.parser(), ErrorReply.parser()));

    private NodeMessagesFuzz() {}

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        BODIES.check(input);
    }
}
