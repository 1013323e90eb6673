package dev.distvm.mpi.launch;

import dev.distvm.mpi.engine.Job;
import dev.distvm.mpi.engine.SharedMemoryHub;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * mpirun's threads mode: the ranks of a job as threads of this JVM, each with its own class loader
 * (see {@link RankClassLoader}), talking through a {@link SharedMemoryHub}. A rank whose main
 * throws fails the job: the other ranks' pending and later operations fail instead of waiting.
 */
public final class ThreadsJob {
    private ThreadsJob() {}

    /**
     * Runs {@code mainClass.main(args)} as {@code ranks} ranks.
     *
     * @return 0 when every rank returned normally, else 1
     */
    public static int run(int ranks, List<Path> classPath, String mainClass, String[] args, PrintStream err)
            throws InterruptedException {
        SharedMemoryHub hub = new SharedMemoryHub(ranks);
        List<Job> jobs = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        AtomicInteger status = new AtomicInteger();
        URL[] urls = urls(classPath);
        for (int rank = 0; rank < ranks; rank++) {
            jobs.add(Job.ofThread(hub, rank));
        }
        for (int rank = 0; rank < ranks; rank++) {
            int me = rank;
            RankClassLoader loader = new RankClassLoader(rank, urls, ThreadsJob.class.getClassLoader());
            Thread thread = new Thread(() -> {
                Job.runAs(jobs.get(me));
                try {
                    Class<?> program = Class.forName(mainClass, true, loader);
                    if (program.getClassLoader() != loader) {
                        throw new IllegalArgumentException(mainClass + " is in a package that all ranks share (java.*, dev.distvm.*, ...),"
                                + " so the ranks would share its statics and MPI's; move it to a package of its own");
                    }
                    Method main = program.getMethod("main", String[].class);
                    main.setAccessible(true); // the class need not be public: java runs a main of any class
                    main.invoke(null, (Object) args.clone());
                } catch (InvocationTargetException e) {
                    fail(me, e.getCause(), err, status, jobs);
                } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                    fail(me, e, err, status, jobs);
                }
            }, "mpi-rank-" + rank);
            thread.setContextClassLoader(loader);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        return status.get();
    }

    private static void fail(int rank, Throwable cause, PrintStream err, AtomicInteger status, List<Job> jobs) {
        if (status.compareAndSet(0, 1)) {
            err.println("rank " + rank + " failed: " + cause);
            cause.printStackTrace(err);
        }
        for (Job job : jobs) {
            job.messenger().fail("rank " + rank + " failed: " + cause);
        }
    }

    /** The program's class path, then where the mpi classes are (dist.jar, or a build's classes). */
    private static URL[] urls(List<Path> classPath) {
        List<URL> urls = new ArrayList<>();
        try {
            for (Path entry : classPath) {
                urls.add(entry.toUri().toURL());
            }
            urls.add(Class.forName("mpi.MPI", false, ThreadsJob.class.getClassLoader())
                    .getProtectionDomain().getCodeSource().getLocation());
        } catch (MalformedURLException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot build the ranks' class path: " + e.getMessage(), e);
        }
        return urls.toArray(URL[]::new);
    }
}
