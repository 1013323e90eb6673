package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CallSiteRewriterTest {
    public static final class WaitNotify {
        static final Named LOCK = new Named("lock");
        static boolean waiting;
        static boolean ready;
        static int woken;

        public static String run() throws InterruptedException {
            Thread waiter = new Thread(() -> {
                synchronized (LOCK) {
                    waiting = true;
                    LOCK.notifyAll();
                    while (!ready) {
                        try {
                            LOCK.wait();
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    woken++;
                    LOCK.notify();
                }
            }, "waiter");
            waiter.start();
            // The waiter holds the lock from setting `waiting` until wait() releases it, so once
            // `waiting` is seen here the waiter is waiting and only our notifyAll() wakes it.
            synchronized (LOCK) {
                while (!waiting) {
                    LOCK.wait();
                }
                ready = true;
                LOCK.notifyAll();
            }
            waiter.join();
            long before = System.nanoTime();
            synchronized (LOCK) {
                LOCK.wait(20);
                LOCK.wait(20, 1);
            }
            return "woken " + woken + ", timed waits returned after " + ((System.nanoTime() - before) >= 40_000_000L ? ">= 40 ms" : "less");
        }
    }

    public static final class Threads {
        public static final class Worker extends Thread {
            final StringBuffer log;
            long idInside;

            Worker(StringBuffer log) {
                super("worker");
                this.log = log;
            }

            @Override
            public void start() {
                log.append("start override;");
                super.start();
            }

            @Override
            public void run() {
                idInside = Thread.currentThread().getId();
                log.append("worker ran;");
            }
        }

        /** Has a start() but is no thread: its calls stay. */
        public static final class Engine {
            boolean started;

            public void start() {
                started = true;
            }
        }

        public static String run() throws InterruptedException {
            StringBuffer log = new StringBuffer();
            Worker worker = new Worker(log);
            worker.start();
            worker.join();
            Thread lambda = new Thread(() -> log.append("lambda ran;"), "lambda");
            lambda.start();
            lambda.join(10_000);
            Thread runnable = new Thread(new Runnable() {
                @Override
                public void run() {
                    log.append("runnable ran;");
                }
            }, "runnable");
            runnable.start();
            runnable.join(10_000, 1);
            CountDownLatch release = new CountDownLatch(1);
            Thread blocked = new Thread(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, "blocked");
            blocked.start();
            boolean aliveBefore = blocked.isAlive();
            release.countDown();
            blocked.join();
            List<Thread> byReference = List.of(new Thread(() -> {}, "ref1"), new Thread(() -> {}, "ref2"));
            byReference.forEach(Thread::start);
            for (Thread thread : byReference) {
                thread.join();
            }
            Engine engine = new Engine();
            engine.start();
            return log + " alive " + aliveBefore + " " + blocked.isAlive() + " " + blocked.getState()
                    + ", same id " + (worker.idInside == worker.getId())
                    + ", engine " + engine.started;
        }
    }

    public static final class Interrupts {
        public static final class Napper extends Thread {
            Napper() {
                super("napper");
            }

            boolean interruptedItself;

            @Override
            public void run() {
                try {
                    sleep(2);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                interrupt();
                interruptedItself = isInterrupted() && Thread.interrupted() && !isInterrupted();
            }
        }

        public static String run() throws InterruptedException {
            StringBuffer log = new StringBuffer();
            Thread sleeper = new Thread(() -> {
                try {
                    Thread.sleep(30_000);
                    log.append("slept");
                } catch (InterruptedException e) {
                    log.append("interrupted");
                }
            }, "sleeper");
            sleeper.start();
            sleeper.interrupt();
            sleeper.join();
            Napper napper = new Napper();
            napper.start();
            napper.join();
            if (!napper.interruptedItself) {
                log.append(", the napper did not see its own interrupt");
            }
            Thread.sleep(1, 500);
            return log.toString();
        }
    }

    public static final class Exits {
        public static String run() {
            Named x = new Named("x");
            boolean sameHash = System.identityHashCode(x) == x.hashCode();
            Thread me = Thread.currentThread();
            System.exit(3);
            Runtime.getRuntime().exit(4);
            Runtime.getRuntime().halt(5);
            return "still running, same hash " + sameHash + ", current thread " + me.getName();
        }
    }

    @BeforeEach
    void reset() {
        RecordingHooks.reset();
    }

    @Test
    void waitAndNotifyGoThroughTheHooksAcrossTwoThreads() throws Throwable {
        Rewritten subject = new Rewritten(WaitNotify.class);
        assertEquals("woken 1, timed waits returned after >= 40 ms", subject.call("run"));
        List<String> calls = RecordingHooks.callsOf("wait", "notify", "notifyAll");
        assertTrue(calls.contains("wait(lock)"), calls.toString());
        assertEquals(2, Collections.frequency(calls, "notifyAll(lock)"), calls.toString());
        assertEquals(1, Collections.frequency(calls, "notify(lock)"), calls.toString());
        assertEquals(List.of("wait(lock, 20)", "wait(lock, 20, 1)"), calls.subList(calls.size() - 2, calls.size()));
        // Seven exits: two per block, and one more for the waiter's return from inside its block.
        assertEquals(Map.of(Kind.WAIT, 4, Kind.NOTIFY, 3, Kind.THREAD_START, 1, Kind.THREAD_JOIN, 1,
                Kind.MONITOR_ENTER, 3, Kind.MONITOR_EXIT, 7, Kind.SERIALIZABLE_LAMBDA, 1), subject.concurrencyCounts(WaitNotify.class));
    }

    @Test
    void threadsOfEveryKindAreStartedAndJoinedThroughTheHooks() throws Throwable {
        Rewritten subject = new Rewritten(Threads.class);
        assertEquals("start override;worker ran;lambda ran;runnable ran; alive true false TERMINATED, same id true, engine true",
                subject.call("run"));
        assertEquals(List.of("start(worker)", "join(worker)", "start(lambda)", "join(lambda, 10000)",
                "start(runnable)", "join(runnable, 10000, 1)", "start(blocked)", "isAlive(blocked)", "join(blocked)",
                "start(ref1)", "start(ref2)", "join(ref1)", "join(ref2)", "isAlive(blocked)", "threadState(blocked)"),
                RecordingHooks.callsOf("start", "join", "isAlive", "threadState"));
        assertEquals(List.of("threadId(worker)", "threadId(worker)"), RecordingHooks.callsOf("threadId"));
        assertEquals(List.of("currentThread()"), RecordingHooks.callsOf("currentThread"));
        // super.start() in the overriding start() is an invokespecial and stays.
        assertEquals(Map.of(Kind.CURRENT_THREAD, 1, Kind.THREAD_ID, 1), subject.concurrencyCounts(Threads.Worker.class));
        assertEquals(Map.of(), subject.concurrencyCounts(Threads.Engine.class));
        assertEquals(Map.of(Kind.THREAD_START, 5, Kind.THREAD_JOIN, 5, Kind.THREAD_IS_ALIVE, 3, Kind.THREAD_ID, 1,
                Kind.SERIALIZABLE_LAMBDA, 5), subject.concurrencyCounts(Threads.class)); // four Runnables and forEach(Thread::start)
    }

    @Test
    void interruptReachesASleepingThreadAndSleepsGoThroughTheHooks() throws Throwable {
        Rewritten subject = new Rewritten(Interrupts.class);
        assertEquals("interrupted", subject.call("run"));
        assertEquals(List.of("interrupt(sleeper)", "interrupt(napper)"), RecordingHooks.callsOf("interrupt"));
        assertEquals(List.of("isInterrupted(napper)", "isInterrupted(napper)"), RecordingHooks.callsOf("isInterrupted"));
        assertEquals(List.of("interrupted()"), RecordingHooks.callsOf("interrupted"));
        // Whether the interrupt comes before or during the sleep, the sleeper's sleep hook is called.
        assertEquals(List.of("sleep(30000)", "sleep(2)", "sleep(1, 500)"), RecordingHooks.callsOf("sleep"));
        // the napper's interrupt, two isInterrupted and one Thread.interrupted
        assertEquals(Map.of(Kind.SLEEP, 1, Kind.THREAD_INTERRUPT, 4), subject.concurrencyCounts(Interrupts.Napper.class));
    }

    @Test
    void exitIsRecordedNotExecutedAndIdentityAndCurrentThreadGoThroughTheHooks() throws Throwable {
        Rewritten subject = new Rewritten(Exits.class);
        assertEquals("still running, same hash true, current thread " + Thread.currentThread().getName(), subject.call("run"));
        assertEquals(List.of("identityHashCode Named"), ObjectSpaceCalls.calls("identityHashCode"));
        // javac names Object as the owner of a hashCode() the receiver's class does not declare
        assertEquals(List.of("objectHashCode Named"), ObjectSpaceCalls.calls("objectHashCode"));
        assertEquals(List.of("currentThread()", "exit(3)", "exit(runtime, 4)", "halt(runtime, 5)"), RecordingHooks.calls);
        assertEquals(Map.of(Kind.IDENTITY_HASH_CODE, 2, Kind.CURRENT_THREAD, 1, Kind.EXIT, 3), subject.concurrencyCounts(Exits.class));
    }
}
