package dev.distvm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.node.proto.MonitorHandOvers;
import dev.distvm.node.proto.NodeReport;
import dev.distvm.node.proto.ThreadRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunReportTest {
    @Test
    void namesWithQuotesAndControlCharactersAreEscaped() {
        assertEquals("\"a\\\"b\\\\c\\nd\\u0001\"", RunReport.quote("a\"b\\c\nd\u0001"));
    }

    @Test
    void everyNodeAppearsWithItsThreadsAndCounters() {
        NodeReport home = NodeReport.newBuilder().setNodeId(1).setPid(100).setRole("home")
                .addThreads(ThreadRecord.newBuilder().setName("main").setId(1).setKind("main"))
                .setMessagesSent(3).setBytesSent(300).setMonitorOperationsLocal(7).setMonitorOperationsRemote(3).setCopiesHeld(12)
                .addPlacements("pi-0: kept home: no object space").setPlacementsNotListed(5).setThreadsNotListed(4)
                .setHeapUsedAfterGc(1234).setTombstones(2).setWritesTracked(9).setVolatilesStaleTold(6).setPartialSnapshots(1)
                .addStops("node 2 ended the run with status 70: thread t on a worker called native method app.N.f").build();
        NodeReport worker = NodeReport.newBuilder().setNodeId(2).setPid(200).setRole("worker")
                .addClassesLoadedRemotely("app.Main").setVolatilePushes(8).setMonitorClassesNotListed(3)
                .addMonitorHandOvers(MonitorHandOvers.newBuilder().setClassName("app.Counter").setWithinNode(40).setAcrossNodes(5))
                .addMonitorHandOvers(MonitorHandOvers.newBuilder().setClassName("app.Queue.class").setAcrossNodes(2).setCallsAtHome(9)).build();
        String json = RunReport.toJson(Instant.EPOCH, Instant.EPOCH, List.of(home, worker), List.of("node 3 (pid 300): gone"));
        assertTrue(json.contains("\"version\": 1"), json);
        assertTrue(json.contains("{\"id\": 1, \"pid\": 100, \"role\": \"home\""), json);
        assertTrue(json.contains("{\"name\": \"main\", \"id\": 1, \"kind\": \"main\"}"), json);
        assertTrue(json.contains("\"messagesSent\": 3, \"bytesSent\": 300"), json);
        assertTrue(json.contains("{\"id\": 2, \"pid\": 200, \"role\": \"worker\""), json);
        assertTrue(json.contains("\"classesLoadedFromHome\": 1"), json);
        assertTrue(json.contains("\"unreachable\": [\"node 3 (pid 300): gone\"]"), json);
        assertTrue(json.contains("\"monitorOperations\": {\"local\": 7, \"remote\": 3}"), json);
        assertTrue(json.contains("\"objectSpace\": {\"objectsHomed\": 0, \"copiesHeld\": 12, \"tombstones\": 2,"
                + " \"writesTracked\": 9,"), json);
        assertTrue(json.contains("\"volatilesStaleTold\": 6, \"partialSnapshots\": 1,"), json);
        assertTrue(json.contains("], \"threadsNotListed\": 4, \"heapUsedAfterGc\": 1234,"), json);
        assertTrue(json.contains("\"placementsNotListed\": 5"), json);
        assertTrue(json.contains("\"volatilePushes\": 8},"), json);
        assertTrue(json.contains("\"monitorHandOvers\": [{\"class\": \"app.Counter\", \"withinNode\": 40, \"acrossNodes\": 5, \"callsAtHome\": 0},"
                + " {\"class\": \"app.Queue.class\", \"withinNode\": 0, \"acrossNodes\": 2, \"callsAtHome\": 9}], \"monitorClassesNotListed\": 3"), json);
        assertTrue(json.contains("\"monitorHandOvers\": [], \"monitorClassesNotListed\": 0"), json);
        assertTrue(json.contains("\"placements\": [\"pi-0: kept home: no object space\"]"), json);
        assertTrue(json.contains("\"stops\": [\"node 2 ended the run with status 70: thread t on a worker called native method"
                + " app.N.f\"]"), json);
        assertTrue(json.contains("\"stops\": []"), json);
    }
}
