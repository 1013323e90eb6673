package dev.distvm.coordinator;

import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.NodeTable;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The coordinator's node table in the OpenMetrics text format (what Prometheus scrapes): nodes by
 * state, and per node whether it is up, its load from its last heartbeat, when it joined and how
 * long a suspect has been silent; the coordinator's start and its count of table changes.
 */
public final class OpenMetricsText {
    public static final String CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private OpenMetricsText() {}

    public static String format(NodeTable table) {
        StringBuilder text = new StringBuilder();
        family(text, "dist_nodes", "gauge", null, "Nodes in the coordinator's table, by state.");
        for (NodeState state : new NodeState[] {NodeState.ALIVE, NodeState.LEFT, NodeState.DEAD}) {
            long count = table.getNodesList().stream().filter(node -> node.getState() == state).count();
            text.append("dist_nodes{state=\"").append(state.name().toLowerCase(Locale.ROOT)).append("\"} ").append(count).append('\n');
        }
        family(text, "dist_node_up", "gauge", null, "1 while the node is alive, 0 once it left or was declared dead.");
        for (NodeInfo node : table.getNodesList()) {
            text.append("dist_node_up{node=\"").append(node.getId()).append("\",role=\"")
                    .append(node.getRole().name().toLowerCase(Locale.ROOT)).append("\",host=\"").append(escape(node.getHost()))
                    .append("\",pid=\"").append(node.getPid()).append("\",address=\"").append(escape(node.getAddress()))
                    .append("\"} ").append(node.getState() == NodeState.ALIVE ? 1 : 0).append('\n');
        }
        perAliveNode(text, table, "dist_node_cpu_ratio", null, "Process CPU use of the node, a share of its machine,"
                + " at its last heartbeat.", node -> node.getLoad().getCpu());
        perAliveNode(text, table, "dist_node_runnable_threads", null, "Runnable threads of the node at its last heartbeat.",
                node -> node.getLoad().getRunnableThreads());
        perAliveNode(text, table, "dist_node_heap_used_bytes", "bytes", "Heap in use at the node's last heartbeat.",
                node -> node.getLoad().getHeapUsed());
        perAliveNode(text, table, "dist_node_heap_max_bytes", "bytes", "The node's maximum heap.",
                node -> node.getLoad().getHeapMax());
        perAliveNode(text, table, "dist_node_processors", null, "Processors the node's JVM may use.",
                node -> node.getLoad().getProcessors());
        perAliveNode(text, table, "dist_node_joined_timestamp_seconds", "seconds", "When the node joined, by the"
                + " coordinator's clock.", node -> node.getJoinedAtMillis() / 1000.0);
        family(text, "dist_node_suspected_silence_seconds", "gauge", "seconds", "How long each suspected node has been"
                + " silent; it is declared dead when its death is certain, or at the failure timeout.");
        table.getSuspectedSilentMillisMap().forEach((node, millis) -> text.append("dist_node_suspected_silence_seconds{node=\"")
                .append(node).append("\"} ").append(number(millis / 1000.0)).append('\n'));
        family(text, "dist_failure_timeout_seconds", "gauge", "seconds", "Silence after which a suspect is declared dead.");
        text.append("dist_failure_timeout_seconds ").append(number(table.getFailureTimeoutMillis() / 1000.0)).append('\n');
        family(text, "dist_coordinator_start_timestamp_seconds", "gauge", "seconds", "When the coordinator started.");
        text.append("dist_coordinator_start_timestamp_seconds ").append(number(table.getCoordinatorStartedMillis() / 1000.0))
                .append('\n');
        family(text, "dist_membership_changes", "counter", null, "Changes of the node table: joins, rejoins, leaves, deaths.");
        text.append("dist_membership_changes_total ").append(table.getTableVersion()).append('\n');
        return text.append("# EOF\n").toString();
    }

    private static void perAliveNode(StringBuilder text, NodeTable table, String name, String unit, String help,
            ToDoubleFunction<NodeInfo> value) {
        family(text, name, "gauge", unit, help);
        for (NodeInfo node : table.getNodesList()) {
            if (node.getState() == NodeState.ALIVE) {
                text.append(name).append("{node=\"").append(node.getId()).append("\"} ")
                        .append(number(value.applyAsDouble(node))).append('\n');
            }
        }
    }

    private static void family(StringBuilder text, String name, String type, String unit, String help) {
        text.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        if (unit != null) {
            text.append("# UNIT ").append(name).append(' ').append(unit).append('\n');
        }
        text.append("# HELP ").append(name).append(' ').append(escape(help)).append('\n');
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    /** A label value or help text: backslash, double quote and line feed escaped, as the format asks. */
    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
