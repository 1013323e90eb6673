package dev.distvm.fuzz;

import dev.distvm.coordinator.proto.Heartbeat;
import dev.distvm.coordinator.proto.HeartbeatReply;
import dev.distvm.coordinator.proto.JoinReply;
import dev.distvm.coordinator.proto.JoinRequest;
import dev.distvm.coordinator.proto.LeaveRequest;
import dev.distvm.coordinator.proto.NodeEvent;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.StatusRequest;
import java.util.List;

/** The coordinator's protocol: every message of {@code membership.proto}, as the coordinator and members decode them. */
public final class MembershipMessagesFuzz {
    private static final ProtobufBodies BODIES = new ProtobufBodies(List.of(JoinRequest.parser(), JoinReply.parser(),
            LeaveRequest.parser(), Heartbeat.parser(), HeartbeatReply.parser(), NodeEvent.parser(), StatusRequest.parser(),
            NodeTable.parser()));

    private MembershipMessagesFuzz() {}

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        BODIES.check(input);
    }
}
