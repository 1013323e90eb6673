package dev.distvm.perf;

import dev.distvm.mpi.launch.MpiRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Application-level MPI figures, each from a run of real ranks: an Allreduce of 1 MiB of doubles
 * on 8 ranks against the same bytes moved point-to-point once (a Sendrecv ring), as processes
 * and as threads; and the Mandelbrot master/slave sample with 1 to 4 slaves.
 *
 * <p>usage: MpiCollectives [--samples PATH_TO_SAMPLES_JAR]
 */
public final class MpiCollectives {
    private static final Pattern ALLREDUCE = Pattern.compile("allreduce_ms ([0-9.]+) ring_sendrecv_ms ([0-9.]+)");
    private static final Pattern MANDELBROT_TIME = Pattern.compile("time ([0-9.]+) s");

    private MpiCollectives() {}

    public static void main(String[] args) throws Exception {
        String samples = "build/samples.jar";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--samples" -> samples = args[++i];
                case "-h", "--help" -> {
                    System.out.println("usage: MpiCollectives [--samples PATH_TO_SAMPLES_JAR]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (try --help)");
            }
        }
        String classPath = System.getProperty("java.class.path");
        for (String mode : new String[] {"processes", "threads"}) {
            String[] prefix = mode.equals("threads") ? new String[] {"-np", "8", "--threads"} : new String[] {"-np", "8"};
            Matcher m = ALLREDUCE.matcher(run(join(prefix, "--", "-cp", classPath, "mpibench.AllreduceRanks")));
            if (!m.find()) {
                throw new IllegalStateException("no allreduce result");
            }
            double allreduce = Double.parseDouble(m.group(1));
            double ring = Double.parseDouble(m.group(2));
            System.out.printf("8 ranks as %-9s: Allreduce 1 MiB doubles %.2f ms, 1 MiB Sendrecv ring %.2f ms, ratio %.2fx%n",
                    mode, allreduce, ring, allreduce / ring);
        }
        for (int slaves = 1; slaves <= 4; slaves++) {
            Matcher m = MANDELBROT_TIME.matcher(runWithErr(new String[] {"-np", String.valueOf(slaves + 1), "--",
                    "-cp", samples, "samples.mpi.Mandelbrot"}));
            if (!m.find()) {
                throw new IllegalStateException("no mandelbrot time");
            }
            System.out.printf("mandelbrot 512x512, %d slave(s), processes: %s s%n", slaves, m.group(1));
        }
    }

    private static String[] join(String[] first, String... rest) {
        String[] all = new String[first.length + rest.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }

    /** Runs mpirun and returns what the ranks printed (threads-mode ranks print to this JVM's System.out). */
    private static String run(String[] args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream console = System.out;
        System.setOut(capture);
        int exit;
        try {
            exit = MpiRun.run(args, capture, System.err);
        } finally {
            System.setOut(console);
        }
        if (exit != 0) {
            throw new IllegalStateException("mpirun " + String.join(" ", args) + " exited with " + exit);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The samples print their timing on standard error, so their stdout stays deterministic. */
    private static String runWithErr(String[] args) throws Exception {
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(both, true, StandardCharsets.UTF_8);
        int exit = MpiRun.run(args, stream, stream);
        if (exit != 0) {
            throw new IllegalStateException("mpirun " + String.join(" ", args) + " exited with " + exit);
        }
        return both.toString(StandardCharsets.UTF_8);
    }
}
