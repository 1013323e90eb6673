package dev.distvm.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.coordinator.proto.Load;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.Role;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class OpenMetricsTextTest {
    @Test
    void labelsEscapeWhatTheFormatAsksAndOnlyAliveNodesHaveLoad() {
        NodeTable table = NodeTable.newBuilder()
                .addNodes(NodeInfo.newBuilder().setId(1).setRole(Role.HOME).setHost("a\"b\\c\nd").setPid(7)
                        .setAddress("tcp://10.0.0.1:4000").setState(NodeState.ALIVE)
                        .setLoad(Load.newBuilder().setCpu(0.25).setRunnableThreads(3)))
                .addNodes(NodeInfo.newBuilder().setId(2).setRole(Role.WORKER).setHost("w").setPid(8)
                        .setAddress("tcp://10.0.0.2:4000").setState(NodeState.DEAD))
                .putSuspectedSilentMillis(1, 1500)
                .setTableVersion(3).setFailureTimeoutMillis(30_000).build();
        String text = OpenMetricsText.format(table);
        assertTrue(text.contains("dist_node_up{node=\"1\",role=\"home\",host=\"a\\\"b\\\\c\\nd\",pid=\"7\","
                + "address=\"tcp://10.0.0.1:4000\"} 1\n"), text);
        assertTrue(text.contains("dist_node_up{node=\"2\",role=\"worker\",host=\"w\",pid=\"8\",address=\"tcp://10.0.0.2:4000\"} 0\n"), text);
        assertTrue(text.contains("dist_node_cpu_ratio{node=\"1\"} 0.25\n"), text);
        assertTrue(!text.contains("dist_node_cpu_ratio{node=\"2\"}"), text);
        assertTrue(text.contains("dist_nodes{state=\"dead\"} 1\n"), text);
        assertTrue(text.contains("dist_node_suspected_silence_seconds{node=\"1\"} 1.5\n"), text);
        assertTrue(text.contains("dist_membership_changes_total 3\n"), text);
        assertTrue(text.endsWith("\n# EOF\n"), text);
    }

    @Test
    void listensOnLoopbackUnlessToldAHost() {
        assertEquals(new InetSocketAddress("127.0.0.1", 9464), MetricsEndpoint.address("9464"));
        assertEquals(new InetSocketAddress("10.0.0.5", 0), MetricsEndpoint.address("10.0.0.5:0"));
        assertEquals(new InetSocketAddress("::1", 80), MetricsEndpoint.address("[::1]:80"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> MetricsEndpoint.address("port"));
        assertTrue(bad.getMessage().contains("PORT (on loopback) or HOST:PORT"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MetricsEndpoint.address("70000"));
        assertThrows(IllegalArgumentException.class, () -> MetricsEndpoint.address(":80"));
    }
}
