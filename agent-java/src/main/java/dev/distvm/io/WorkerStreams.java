package dev.distvm.io;

/** A worker's {@code System.out}, {@code System.err} and {@code System.in} are the home's. */
public final class WorkerStreams {
    private WorkerStreams() {}

    public static void redirect(HomeLink home) {
        System.setOut(new RemotePrintStream(new RemoteOutput(home, HomeOutput.OUT)));
        System.setErr(new RemotePrintStream(new RemoteOutput(home, HomeOutput.ERR)));
        System.setIn(new RemoteInput(home));
    }
}
