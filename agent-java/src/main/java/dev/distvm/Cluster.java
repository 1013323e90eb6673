package dev.distvm;

import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.node.NodeRuntime;
import dev.distvm.node.StaticInvoker;
import dev.distvm.node.proto.InvokeResult;
import dev.distvm.node.proto.InvokeStatic;
import dev.distvm.node.proto.NodeMessageType;
import java.util.List;

/**
 * The cluster this program runs on, for programs that want to look or choose; unmodified programs
 * never need it. Without dist the program is a one-node cluster.
 *
 * <pre>{@code
 * for (Cluster.Node node : Cluster.nodes()) {
 *     String where = Cluster.invokeStatic(node.id(), "app.Probe", "describe");
 *     System.out.println(node + ": " + where);
 * }
 * }</pre>
 */
public final class Cluster {
    /** A live node: its id, role ("home" or "worker"), process id and host. */
    public record Node(int id, String role, long pid, String host) {}

    private Cluster() {}

    /** The live nodes, ordered by id. */
    public static List<Node> nodes() {
        NodeRuntime runtime = NodeRuntime.current();
        if (runtime == null) {
            return List.of(new Node(0, "home", ProcessHandle.current().pid(), "localhost"));
        }
        return runtime.membership().alive().stream().map(Cluster::node).toList();
    }

    /** The id of the node the caller runs on. */
    public static int self() {
        NodeRuntime runtime = NodeRuntime.current();
        return runtime == null ? 0 : runtime.membership().nodeId();
    }

    /**
     * Runs {@code className.method(arguments...)} on node {@code nodeId} and returns
     * {@code String.valueOf} of its result. The method must be public and static and take as many
     * {@code String} parameters as arguments are given. The node loads the class from the home if
     * it does not have it.
     *
     * @throws RemoteInvocationException when the method threw, or the class or method is not found there
     */
    public static String invokeStatic(int nodeId, String className, String method, String... arguments) {
        NodeRuntime runtime = NodeRuntime.current();
        InvokeStatic request = InvokeStatic.newBuilder()
                .setClassName(className).setMethod(method).addAllArguments(List.of(arguments)).build();
        InvokeResult result;
        if (runtime == null) {
            if (nodeId != 0) {
                throw new IllegalArgumentException("no node " + nodeId + ": this program runs without dist (node 0 only)");
            }
            result = StaticInvoker.invokeHere(request, ClassLoader.getSystemClassLoader());
        } else {
            result = runtime.endpoint().call(address(runtime, nodeId), NodeMessageType.INVOKE_STATIC_VALUE, request,
                    InvokeResult.parser());
        }
        if (!result.getOk()) {
            throw new RemoteInvocationException(nodeId, result.getExceptionClass(), result.getMessage());
        }
        return result.getValue();
    }

    private static String address(NodeRuntime runtime, int nodeId) {
        return runtime.membership().node(nodeId)
                .filter(n -> n.getState() == dev.distvm.coordinator.proto.NodeState.ALIVE)
                .map(NodeInfo::getAddress)
                .orElseThrow(() -> new IllegalArgumentException("no live node " + nodeId + "; live nodes: " + nodes()));
    }

    private static Node node(NodeInfo info) {
        return new Node(info.getId(), info.getRole().name().toLowerCase(), info.getPid(), info.getHost());
    }

    /** An exception thrown by code that ran on another node, named by its class there. */
    public static final class RemoteInvocationException extends RuntimeException {
        private final String exceptionClass;

        RemoteInvocationException(int node, String exceptionClass, String message) {
            super(exceptionClass + " on node " + node + ": " + message);
            this.exceptionClass = exceptionClass;
        }

        /** The class name of the exception thrown on the remote node, e.g. java.lang.ClassNotFoundException. */
        public String exceptionClass() {
            return exceptionClass;
        }
    }
}
