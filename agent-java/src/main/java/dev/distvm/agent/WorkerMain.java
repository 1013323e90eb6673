package dev.distvm.agent;

import dev.distvm.node.WorkerNode;

/**
 * The main class named on a worker's command line. The agent started the worker before this runs;
 * the main thread waits here for the worker's end (it ends through System.exit). Without the agent
 * there is no worker, and this says how to start one.
 */
public final class WorkerMain {
    private WorkerMain() {}

    public static void main(String[] args) {
        if (WorkerNode.serving()) {
            WorkerNode.serveForever();
            return;
        }
        System.err.println("[dist] error: this JVM was meant to be a dist worker but runs without the agent;"
                + " start it with `dist worker --join tcp://HOST:PORT` or"
                + " -javaagent:dist.jar=role=worker,join=tcp://HOST:PORT");
        System.exit(2);
    }
}
