package dev.distvm.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WorkerLauncherTest {
    @Test
    void localWorkersOfALoopbackCoordinatorKeepLoopbackWhereverTheHomeListens() {
        assertEquals("", WorkerLauncher.addressOptions("tcp://127.0.0.1:40000",
                AgentOptions.parse("nodes=3,bind=tcp://10.0.0.1:7100")));
    }

    @Test
    void localWorkersOfACoordinatorOffLoopbackListenAtTheHomesHostOnPortsOfTheirOwn() {
        assertEquals(",bind=tcp://10.0.0.1", WorkerLauncher.addressOptions("tcp://10.0.0.9:7000",
                AgentOptions.parse("nodes=3,join=tcp://10.0.0.9:7000,bind=tcp://10.0.0.1:7100")));
        assertEquals(",bind=tcp://0.0.0.0,advertise=tcp://203.0.113.5", WorkerLauncher.addressOptions(
                "tcp://10.0.0.9:7000", AgentOptions.parse(
                        "nodes=3,join=tcp://10.0.0.9:7000,bind=tcp://0.0.0.0,advertise=tcp://203.0.113.5:7100")));
    }
}
