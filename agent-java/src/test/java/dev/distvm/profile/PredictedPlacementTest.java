package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class PredictedPlacementTest {
    private static List<Integer> nodesAt(int nodes, int cluster, int... more) {
        List<Integer> all = new ArrayList<>();
        all.add(PredictedPlacement.node(nodes, cluster));
        for (int other : more) {
            all.add(PredictedPlacement.node(other, cluster));
        }
        return all;
    }

    @Test
    void placesMainAtTheHomeAndEachOtherThreadOnTheLeastLoadedNodeRoundRobin() throws Exception {
        PredictedPlacement placement = new PredictedPlacement(Thread.currentThread());
        assertEquals(0, placement.place(Thread.currentThread()), "main is at the home in every cluster");
        CountDownLatch end = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        int[] nodes = new int[4];
        for (int i = 0; i < nodes.length; i++) {
            Thread thread = new Thread(() -> {
                try {
                    end.await();
                } catch (InterruptedException ignored) {
                    // ends
                }
            });
            thread.start();
            running.add(thread);
            nodes[i] = placement.place(thread);
        }
        // 2 nodes: main loads the home, so 1, then 0 and 1 are equal (round-robin from 0), then 1.
        assertEquals(List.of(1, 0, 1, 0), nodesAt(nodes[0], 0, nodes[1], nodes[2], nodes[3]));
        assertEquals(List.of(1, 2, 3, 0), nodesAt(nodes[0], 1, nodes[1], nodes[2], nodes[3]));
        assertEquals(List.of(1, 2, 3, 4), nodesAt(nodes[0], 2, nodes[1], nodes[2], nodes[3]));
        end.countDown();
        for (Thread thread : running) {
            thread.join();
        }
        Thread later = new Thread(() -> { });
        assertEquals(5, PredictedPlacement.node(placement.place(later), 2), "ended threads load no node; 5 is next in turn");
    }

    @Test
    void aThreadTheObjectSpaceWouldKeepHomeGoesThereAndUsesUpItsTurn() {
        // No main: each thread gets the next node in turn, the least loaded one.
        PredictedPlacement placement = new PredictedPlacement(null);
        int first = placement.place(new Thread(() -> { }));
        Thread kept = new Thread(() -> { });
        placement.keepHome(kept);
        int keptNodes = placement.place(kept);
        int third = placement.place(new Thread(() -> { }));
        assertEquals(0, first, "node 0 is the first in turn in every cluster");
        assertEquals(0, keptNodes, "kept at the home in every cluster");
        assertEquals(List.of(2, 2), List.of(PredictedPlacement.node(third, 1), PredictedPlacement.node(third, 2)),
                "node 1's turn went to the kept thread");
    }

    @Test
    void threadsPlacedAsTheyStartKeepTheirNodesWhateverOrderTheyFirstAccessIn() {
        PredictedPlacement placement = new PredictedPlacement(Thread.currentThread());
        Thread first = new Thread(() -> { });
        Thread second = new Thread(() -> { });
        int firstNodes = placement.place(first);
        int secondNodes = placement.place(second);
        assertEquals(List.of(1, 2), nodesAt(firstNodes, 1, secondNodes), "in start order at 4 nodes; a thread not started yet loads its node");
        assertEquals(secondNodes, placement.place(second), "its first sampled access does not place it again");
        assertEquals(firstNodes, placement.place(first));
        assertEquals(3, PredictedPlacement.node(placement.place(new Thread(() -> { })), 1), "the next thread is next in turn");
    }
}
