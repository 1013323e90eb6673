package dev.distvm.perf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What the attached profiler ({@code ./dist attach}) costs the program it profiles, in one run of
 * one JVM: each kernel runs round after round ({@code perfapp.RoundTimes}); after warm-up rounds,
 * the median of N rounds unprofiled, then N rounds with the profiler sampling (its default, 1,000
 * samples a second), N rounds after it detached, N rounds counting every access. Rounds during which the profiler
 * attached or detached, and the next one (the JIT recompiling the rewritten methods), are not
 * counted. The baseline is the median of both unprofiled stretches; the ratios are profiled median
 * over baseline. The last unprofiled stretch also shows that detaching gives the speed back.
 *
 * <p>usage: ProfilerOverhead [--rounds N] [--build DIR] ['Main args' ...]
 */
public final class ProfilerOverhead {
    private static final List<List<String>> KERNELS = List.of(
            List.of("samples.raytrace.RayTracer", "4", "800", "600"),
            List.of("samples.sor.Sor", "4", "512", "1000"),
            List.of("samples.matmul.MatMul", "4", "500"),
            List.of("samples.sync.SyncMethods", "4", "1000000", "shared"));
    private static final int WARM_UP_ROUNDS = 6;
    /** Rounds not counted after the profiler attached or detached. */
    private static final int SETTLING_ROUNDS = 2;

    private ProfilerOverhead() {}

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args,
                "usage: ProfilerOverhead [--rounds N] [--build DIR] ['Main args' ...]\n"
                        + "Each kernel (default: ray tracer, SOR, matmul, SyncMethods shared) unprofiled, sampled,\n"
                        + "unprofiled again and fully counted, N rounds each (default 5), in one JVM.",
                Set.of("--rounds", "--build"), Set.of(), true);
        int rounds = options.count("--rounds", 5);
        Path build = Path.of(options.value("--build", "build"));
        List<List<String>> kernels = new ArrayList<>();
        for (String kernel : options.rest()) {
            kernels.add(List.of(kernel.split(" ")));
        }
        System.out.printf("%-28s %10s %10s %10s %10s %8s %8s%n", "kernel", "plain_ms", "sampled_ms", "after_ms", "full_ms",
                "sampled", "full");
        for (List<String> kernel : kernels.isEmpty() ? KERNELS : kernels) {
            measure(build, kernel, rounds);
        }
    }

    private static void measure(Path build, List<String> kernel, int rounds) throws Exception {
        List<String> command = new ArrayList<>(List.of(java(), "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading",
                "-cp", build.resolve("perf.jar") + java.io.File.pathSeparator + build.resolve("samples.jar"),
                "perfapp.RoundTimes"));
        command.addAll(kernel);
        Process target = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BlockingQueue<Double> roundMillis = rounds(target);
            take(roundMillis, WARM_UP_ROUNDS, target);
            double[] before = take(roundMillis, rounds, target);
            double[] sampled = profiled(build, target, roundMillis, rounds, "--rate", "1000");
            double[] after = take(roundMillis, rounds, target);
            double[] full = profiled(build, target, roundMillis, rounds, "--every-access");
            double[] unprofiled = new double[2 * rounds];
            System.arraycopy(before, 0, unprofiled, 0, rounds);
            System.arraycopy(after, 0, unprofiled, rounds, rounds);
            double base = SampleRuns.median(unprofiled);
            System.out.printf(Locale.ROOT, "%-28s %10.1f %10.1f %10.1f %10.1f %7.3fx %7.3fx%n", kernel.get(0), SampleRuns.median(before),
                    SampleRuns.median(sampled), SampleRuns.median(after), SampleRuns.median(full), SampleRuns.median(sampled) / base, SampleRuns.median(full) / base);
            target.getOutputStream().close();
            if (!target.waitFor(5, TimeUnit.MINUTES) || target.exitValue() != 0) {
                throw new IllegalStateException(kernel.get(0) + ": the target did not end cleanly");
            }
        } finally {
            target.destroyForcibly();
        }
    }

    /** Rounds with the profiler attached (with {@code how} to sample), then detached by ending the attaching command. */
    private static double[] profiled(Path build, Process target, BlockingQueue<Double> roundMillis, int rounds, String... how)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", build.resolve("dist.jar").toString(), "attach",
                Long.toString(target.pid()), "--duration", "60m"));
        command.addAll(List.of(how));
        Process attach = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(false).start();
        try (BufferedReader said = new BufferedReader(new InputStreamReader(attach.getErrorStream(), StandardCharsets.UTF_8))) {
            String line = said.readLine();
            if (line == null || !line.startsWith("dist: profiling")) {
                throw new IllegalStateException("the profiler did not start: " + line);
            }
            roundMillis.clear();
            take(roundMillis, SETTLING_ROUNDS, target);
            double[] profiled = take(roundMillis, rounds, target);
            attach.destroy();
            attach.waitFor(1, TimeUnit.MINUTES);
            roundMillis.clear();
            take(roundMillis, SETTLING_ROUNDS, target);
            return profiled;
        } finally {
            attach.destroyForcibly();
        }
    }

    private static BlockingQueue<Double> rounds(Process target) {
        BlockingQueue<Double> rounds = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("round_ms ")) {
                        rounds.add(Double.parseDouble(line.substring("round_ms ".length())));
                    }
                }
            } catch (IOException ignored) {
                // the target ended
            }
        }, "round-times");
        reader.setDaemon(true);
        reader.start();
        return rounds;
    }

    private static double[] take(BlockingQueue<Double> rounds, int count, Process target) throws InterruptedException {
        double[] taken = new double[count];
        for (int i = 0; i < count; i++) {
            Double millis = rounds.poll(5, TimeUnit.MINUTES);
            if (millis == null) {
                throw new IllegalStateException("no round in 5 minutes (target alive: " + target.isAlive() + ")");
            }
            taken[i] = millis;
        }
        return taken;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
