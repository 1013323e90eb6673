package dev.distvm.agent;

/**
 * The main class named on a worker's command line. A worker is served by the agent, which never
 * returns to main; reaching this means the JVM was started without the agent.
 */
public final class WorkerMain {
    private WorkerMain() {}

    public static void main(String[] args) {
        System.err.println("[dist] error: this JVM was meant to be a dist worker but runs without the agent;"
                + " start it with `dist worker --join tcp://HOST:PORT` or"
                + " -javaagent:dist.jar=role=worker,join=tcp://HOST:PORT");
        System.exit(2);
    }
}
