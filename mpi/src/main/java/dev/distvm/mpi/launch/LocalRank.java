package dev.distvm.mpi.launch;

import java.util.concurrent.TimeUnit;

/** A rank that is mpirun's child process on this host. */
record LocalRank(int rank, Process process) implements RankProcess {
    @Override
    public String where() {
        return "pid " + process.pid();
    }

    @Override
    public Ended awaitEnd(long millis) throws InterruptedException {
        return process.waitFor(millis, TimeUnit.MILLISECONDS) ? Ended.exited(process.exitValue()) : null;
    }

    @Override
    public void stop() {
        RankJvm.destroy(process);
    }
}
