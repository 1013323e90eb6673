package dev.distvm.coordinator;

import static org.junit.jupiter.api.Assertions.fail;

import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Keeps what a membership reported, and lets a test wait for one report. A wait also sees reports
 * that came before it began, since the test cannot know which comes first.
 */
final class RecordingListener implements Membership.Listener {
    private record Expected(int id, NodeState state, CompletableFuture<NodeInfo> seen) {
        boolean offer(NodeInfo node) {
            return node.getId() == id && node.getState() == state && seen.complete(node);
        }
    }

    private final List<NodeInfo> changes = new ArrayList<>();
    private final List<Expected> expected = new ArrayList<>();
    private final CompletableFuture<String> lost = new CompletableFuture<>();

    @Override
    public synchronized void changed(NodeInfo node) {
        changes.add(node);
        expected.removeIf(e -> e.offer(node));
    }

    @Override
    public void lost(String reason) {
        lost.complete(reason);
    }

    synchronized List<NodeInfo> changes() {
        return List.copyOf(changes);
    }

    /** The report that node {@code id} reached {@code state}, failing the test if none comes within the bound. */
    NodeInfo awaitChange(int id, NodeState state, Duration within) {
        Expected wanted = new Expected(id, state, new CompletableFuture<>());
        synchronized (this) {
            if (changes.stream().noneMatch(wanted::offer)) {
                expected.add(wanted);
            }
        }
        return await(wanted.seen(), within, () -> "node " + id + " " + state + "; heard only " + describe(changes()));
    }

    /** The reason given when the membership was lost, failing the test if it is not lost within the bound. */
    String awaitLost(Duration within) {
        return await(lost, within, () -> "the membership to be lost");
    }

    private static <T> T await(CompletableFuture<T> future, Duration within, Supplier<String> what) {
        try {
            return future.get(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return fail("waited " + within.toMillis() + " ms for " + what.get());
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what.get(), e);
        }
    }

    private static String describe(List<NodeInfo> nodes) {
        return nodes.stream().map(n -> "node " + n.getId() + " " + n.getState()).toList().toString();
    }
}
