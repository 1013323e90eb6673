package itapp;

import dev.distvm.Cluster;

/**
 * A program that uses dist's explicit API: runs RemoteWork on every node and prints what each
 * answered, including the errors of a missing class, so that tests compare nodes line by line.
 */
public final class InvokeEverywhere {
    private InvokeEverywhere() {}

    public static void main(String[] args) {
        for (Cluster.Node node : Cluster.nodes()) {
            System.out.println("node " + node.id() + " " + node.role() + " pid " + node.pid());
            System.out.println("  describe: " + Cluster.invokeStatic(node.id(), "itapp.RemoteWork", "describe"));
            System.out.println("  echo: " + Cluster.invokeStatic(node.id(), "itapp.RemoteWork", "echo", "a", "b"));
            System.out.println("  missing class: " + failure(node.id(), "itapp.NoSuchClass", "describe"));
            System.out.println("  missing dependency: " + failure(node.id(), "itapp.RemoteWork", "touchGone"));
        }
    }

    private static String failure(int node, String className, String method) {
        try {
            return "no failure: " + Cluster.invokeStatic(node, className, method);
        } catch (Cluster.RemoteInvocationException e) {
            return e.exceptionClass();
        }
    }
}
