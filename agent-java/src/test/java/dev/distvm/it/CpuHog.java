package dev.distvm.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Busy processes, two per core, that keep the machine overloaded until closed. */
final class CpuHog implements AutoCloseable {
    private final List<Process> spinners = new ArrayList<>();

    private CpuHog() {}

    static CpuHog twoPerCore() throws IOException {
        CpuHog hog = new CpuHog();
        try {
            for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
                hog.spinners.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
            }
        } catch (IOException | RuntimeException e) {
            hog.close();
            throw e;
        }
        return hog;
    }

    @Override
    public void close() {
        spinners.forEach(Process::destroyForcibly);
    }
}
