package dev.distvm.report;

import dev.distvm.node.proto.MonitorHandOvers;
import dev.distvm.node.proto.OnDemand;
import dev.distvm.node.proto.NodeReport;
import dev.distvm.node.proto.ThreadRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The run report: one JSON document written by the home at exit. Versioned: later issues add
 * fields; readers must ignore fields they do not know, and {@code version} changes only when a
 * field changes meaning or disappears.
 */
public final class RunReport {
    static final int VERSION = 1;

    private RunReport() {}

    public static void write(Path file, Instant started, List<NodeReport> nodes, List<String> unreachable) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, toJson(started, Instant.now(), nodes, unreachable), StandardCharsets.UTF_8);
    }

    static String toJson(Instant started, Instant ended, List<NodeReport> nodes, List<String> unreachable) {
        StringBuilder json = new StringBuilder();
        json.append("{\n  \"version\": ").append(VERSION)
                .append(",\n  \"started\": ").append(quote(started.toString()))
                .append(",\n  \"ended\": ").append(quote(ended.toString()))
                .append(",\n  \"nodes\": [");
        for (int i = 0; i < nodes.size(); i++) {
            json.append(i == 0 ? "\n" : ",\n");
            node(json, nodes.get(i));
        }
        json.append("\n  ],\n  \"unreachable\": ");
        stringArray(json, unreachable);
        return json.append("\n}\n").toString();
    }

    private static void node(StringBuilder json, NodeReport node) {
        json.append("    {\"id\": ").append(node.getNodeId())
                .append(", \"pid\": ").append(node.getPid())
                .append(", \"role\": ").append(quote(node.getRole()))
                .append(",\n     \"threads\": [");
        List<ThreadRecord> threads = node.getThreadsList();
        for (int i = 0; i < threads.size(); i++) {
            ThreadRecord t = threads.get(i);
            json.append(i == 0 ? "" : ", ").append("{\"name\": ").append(quote(t.getName()))
                    .append(", \"id\": ").append(t.getId())
                    .append(", \"kind\": ").append(quote(t.getKind())).append('}');
        }
        json.append("], \"threadsNotListed\": ").append(node.getThreadsNotListed())
                .append(", \"heapUsedAfterGc\": ").append(node.getHeapUsedAfterGc())
                .append(",\n     \"transport\": {\"messagesSent\": ").append(node.getMessagesSent())
                .append(", \"bytesSent\": ").append(node.getBytesSent())
                .append(", \"messagesReceived\": ").append(node.getMessagesReceived())
                .append(", \"bytesReceived\": ").append(node.getBytesReceived())
                .append(", \"rejected\": ").append(node.getRejected()).append("},\n     \"classesLoadedFromHome\": ")
                .append(node.getClassesLoadedRemotelyCount())
                .append(",\n     \"monitorOperations\": {\"local\": ").append(node.getMonitorOperationsLocal())
                .append(", \"remote\": ").append(node.getMonitorOperationsRemote())
                .append("},\n     \"objectSpace\": {\"objectsHomed\": ").append(node.getObjectsHomed())
                .append(", \"copiesHeld\": ").append(node.getCopiesHeld())
                .append(", \"tombstones\": ").append(node.getTombstones())
                .append(", \"writesTracked\": ").append(node.getWritesTracked())
                .append(", \"staticsFetched\": ").append(node.getStaticsFetched())
                .append(", \"refreshes\": ").append(node.getRefreshes())
                .append(", \"releases\": ").append(node.getReleases())
                .append(", \"volatilesStaleTold\": ").append(node.getVolatilesStaleTold())
                .append(", \"partialSnapshots\": ").append(node.getPartialSnapshots())
                .append(", \"bytesSent\": ").append(node.getObjectBytesSent())
                .append(", \"bytesReceived\": ").append(node.getObjectBytesReceived())
                .append(", \"volatilePushes\": ").append(node.getVolatilePushes())
                .append("},\n     \"monitorHandOvers\": [");
        List<MonitorHandOvers> handOvers = node.getMonitorHandOversList();
        for (int i = 0; i < handOvers.size(); i++) {
            MonitorHandOvers h = handOvers.get(i);
            json.append(i == 0 ? "" : ", ").append("{\"class\": ").append(quote(h.getClassName()))
                    .append(", \"withinNode\": ").append(h.getWithinNode())
                    .append(", \"acrossNodes\": ").append(h.getAcrossNodes())
                    .append(", \"callsAtHome\": ").append(h.getCallsAtHome()).append('}');
        }
        json.append("], \"monitorClassesNotListed\": ").append(node.getMonitorClassesNotListed())
                .append(",\n     \"onDemand\": [");
        List<OnDemand> onDemand = node.getOnDemandList();
        for (int i = 0; i < onDemand.size(); i++) {
            OnDemand d = onDemand.get(i);
            json.append(i == 0 ? "" : ", ").append("{\"class\": ").append(quote(d.getClassName()))
                    .append(", \"arrays\": ").append(d.getArrays())
                    .append(", \"fetches\": ").append(d.getFetches())
                    .append(", \"chunks\": ").append(d.getChunks())
                    .append(", \"bytes\": ").append(d.getBytes()).append('}');
        }
        json.append("], \"onDemandClassesNotListed\": ").append(node.getOnDemandClassesNotListed())
                .append(",\n     \"placements\": ");
        stringArray(json, node.getPlacementsList());
        json.append(", \"placementsNotListed\": ").append(node.getPlacementsNotListed());
        json.append(",\n     \"stops\": ");
        stringArray(json, node.getStopsList());
        json.append(",\n     \"nativeCapabilities\": ");
        stringArray(json, node.getNativeCapabilitiesList());
        json.append('}');
    }

    private static void stringArray(StringBuilder json, List<String> values) {
        json.append('[');
        for (int i = 0; i < values.size(); i++) {
            json.append(i == 0 ? "" : ", ").append(quote(values.get(i)));
        }
        json.append(']');
    }

    public static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
