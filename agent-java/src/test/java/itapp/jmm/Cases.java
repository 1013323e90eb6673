package itapp.jmm;

import itapp.jmm.elsewhere.NamedAcrossPackages;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/** The cases of {@link Conformance}; each returns null when it holds, or what went wrong. */
final class Cases {
    static final int THREADS = 4;

    private Cases() {}

    /** Joins every thread, then returns the first failure one of them recorded, or null. */
    private static String joinAndFirstFailure(Thread[] threads, String[] failures) throws InterruptedException {
        for (Thread t : threads) {
            t.join();
        }
        for (String failure : failures) {
            if (failure != null) {
                return failure;
            }
        }
        return null;
    }

    static final class Box {
        int value;
        boolean ready;
        Box other;
    }

    static final class Flag {
        volatile boolean up;
        volatile int[] cells = new int[THREADS];
        long payload;
    }

    static String synchronizedVisibility() throws InterruptedException {
        Box box = new Box();
        Thread writer = new Thread(() -> {
            synchronized (box) {
                box.value = 42;
                box.ready = true;
                box.notifyAll();
            }
        }, "sync-writer");
        int[] seen = new int[1];
        Thread reader = new Thread(() -> {
            synchronized (box) {
                while (!box.ready) {
                    try {
                        box.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                seen[0] = box.value;
            }
        }, "sync-reader");
        reader.start();
        writer.start();
        writer.join();
        reader.join();
        return seen[0] == 42 ? null : "reader saw " + seen[0];
    }

    static String volatileVisibility() throws InterruptedException {
        Flag flag = new Flag();
        long[] seen = new long[1];
        Thread reader = new Thread(() -> {
            while (!flag.up) {
                Thread.onSpinWait();
            }
            seen[0] = flag.payload;
        }, "volatile-reader");
        reader.start();
        Thread writer = new Thread(() -> {
            flag.payload = 0x1234_5678_9abcL;
            flag.up = true;
        }, "volatile-writer");
        writer.start();
        writer.join();
        reader.join();
        return seen[0] == 0x1234_5678_9abcL ? null : "reader saw " + seen[0];
    }

    static String startJoinVisibility() throws InterruptedException {
        long[] cells = new long[THREADS];
        for (int i = 0; i < THREADS; i++) {
            cells[i] = i;
        }
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> cells[mine] = cells[mine] * 1000 + 7, "start-join-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            if (cells[i] != i * 1000L + 7) {
                return "cell " + i + " is " + cells[i];
            }
        }
        return null;
    }

    static String volatileFlagSpin() throws InterruptedException {
        Flag flag = new Flag();
        Thread[] spinners = new Thread[THREADS - 1];
        for (int i = 0; i < spinners.length; i++) {
            spinners[i] = new Thread(() -> {
                while (!flag.up) {
                    Thread.onSpinWait();
                }
            }, "spinner-" + i);
            spinners[i].start();
        }
        Thread.sleep(50);
        flag.up = true;
        for (Thread t : spinners) {
            t.join();
        }
        return null;
    }

    /** Each thread waits for its left neighbour's cell, then sets its own: a chain through the array. */
    static String volatileArraySpin() throws InterruptedException {
        Flag flag = new Flag();
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                if (mine > 0) {
                    while (flag.cells[mine - 1] == 0) {
                        Thread.onSpinWait();
                    }
                }
                flag.cells[mine] = mine + 1;
            }, "chain-" + i);
        }
        for (int i = THREADS - 1; i >= 0; i--) {
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return flag.cells[THREADS - 1] == THREADS ? null : "last cell is " + flag.cells[THREADS - 1];
    }

    /**
     * Threads spin on volatile statics and hand a turn on through one: what the home's class
     * initializer set, what the home writes and what each thread writes reach every other thread.
     */
    static String volatileStaticSpin() throws InterruptedException {
        int[] initial = new int[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                initial[mine] = StaticFlags.initial;
                while (!StaticFlags.go) {
                    Thread.onSpinWait();
                }
                while (StaticFlags.turn != mine) {
                    Thread.onSpinWait();
                }
                StaticFlags.turn = mine + 1;
            }, "static-spin-" + i);
            threads[i].start();
        }
        StaticFlags.go = true;
        while (StaticFlags.turn != THREADS) {
            Thread.onSpinWait();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            if (initial[i] != 7) {
                return "thread " + i + " saw the initializer's value as " + initial[i];
            }
        }
        return null;
    }

    static String notifyAllWakesEveryWaiter() throws InterruptedException {
        Gate gate = new Gate();
        Thread[] waiters = startWaiters(gate, THREADS);
        gate.awaitWaiting(THREADS);
        gate.open(true);
        for (Thread t : waiters) {
            t.join();
        }
        return gate.passed() == THREADS ? null : gate.passed() + " of " + THREADS + " waiters passed";
    }

    static String notifyWakesOne() throws InterruptedException {
        Gate gate = new Gate();
        Thread[] waiters = startWaiters(gate, THREADS);
        gate.awaitWaiting(THREADS);
        for (int released = 1; released <= THREADS; released++) {
            gate.open(false);
            gate.awaitPassed(released);
        }
        for (Thread t : waiters) {
            t.join();
        }
        return gate.passed() == THREADS ? null : gate.passed() + " passed";
    }

    private static Thread[] startWaiters(Gate gate, int count) {
        Thread[] waiters = new Thread[count];
        for (int i = 0; i < count; i++) {
            waiters[i] = new Thread(gate::pass, "waiter-" + i);
            waiters[i].start();
        }
        return waiters;
    }

    /** wait and notify of a shared object whose monitor the thread does not hold fail as on one JVM. */
    static String waitAndNotifyNeedTheMonitor() throws InterruptedException {
        Box box = new Box();
        String[] failures = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                synchronized (box) {
                    box.value++; // held once, so the object is the home's and its monitor too
                }
                try {
                    box.notify();
                    failures[mine] = "notify without the monitor did not throw";
                } catch (IllegalMonitorStateException expected) {
                    try {
                        box.wait(1);
                        failures[mine] = "wait without the monitor did not throw";
                    } catch (IllegalMonitorStateException alsoExpected) {
                        // as on one JVM
                    } catch (InterruptedException e) {
                        failures[mine] = "interrupted";
                    }
                }
            }, "unowned-" + i);
            threads[i].start();
        }
        String failure = joinAndFirstFailure(threads, failures);
        if (failure != null) {
            return failure;
        }
        return box.value == THREADS ? null : "box is " + box.value;
    }

    static String timedWait() throws InterruptedException {
        Box lock = new Box(); // an application object: a JDK one would keep the thread home
        long[] waited = new long[1];
        Thread t = new Thread(() -> {
            long start = System.nanoTime();
            synchronized (lock) {
                try {
                    lock.wait(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
            waited[0] = (System.nanoTime() - start) / 1_000_000;
        }, "timed-waiter");
        t.start();
        t.join();
        return waited[0] >= 90 ? null : "wait(100) returned after " + waited[0] + " ms";
    }

    static String interruptWaiting() throws InterruptedException {
        Gate gate = new Gate();
        boolean[] interrupted = new boolean[1];
        Thread t = new Thread(() -> interrupted[0] = gate.waitUntilInterrupted(), "interrupted-waiter");
        t.start();
        gate.awaitWaiting(1);
        t.interrupt();
        t.join();
        return interrupted[0] ? null : "the waiter was not interrupted";
    }

    static String interruptSleeping() throws InterruptedException {
        boolean[] interrupted = new boolean[1];
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted[0] = true;
            }
        }, "sleeper");
        t.start();
        while (t.getState() != Thread.State.TIMED_WAITING && t.isAlive()) {
            Thread.sleep(5);
        }
        t.interrupt();
        t.join();
        return interrupted[0] ? null : "the sleeper was not interrupted";
    }

    /** Threads that say they are running, so that main interrupts them after they read what it writes next. */
    static final class Arrivals {
        volatile int count;

        synchronized void arrive() {
            count++;
        }
    }

    /**
     * An interrupt publishes what the interrupter wrote before it (JLS 17.4.4), whichever way the
     * thread sees it: {@code isInterrupted()}, {@code Thread.interrupted()}, an
     * {@code InterruptedException} from a sleep, or from a wait on an object of its own. A cancelled
     * thread that reports what the canceller set read its copy's old value.
     */
    static String interruptsPublishWrites() throws InterruptedException {
        Box[] boxes = new Box[THREADS];
        String[] failures = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        Arrivals arrivals = new Arrivals();
        for (int i = 0; i < THREADS; i++) {
            Box box = boxes[i] = new Box();
            int me = i;
            threads[i] = new Thread(() -> {
                int before = box.value; // the copy, made before main writes
                arrivals.arrive();
                try {
                    switch (me % 4) {
                        case 0 -> {
                            while (!Thread.currentThread().isInterrupted()) {
                                Thread.onSpinWait();
                            }
                        }
                        case 1 -> {
                            while (!Thread.interrupted()) {
                                Thread.onSpinWait();
                            }
                        }
                        case 2 -> Thread.sleep(60_000);
                        default -> {
                            Object own = new Object();
                            synchronized (own) {
                                own.wait();
                            }
                        }
                    }
                } catch (InterruptedException e) {
                    // seen: what follows must see main's writes
                }
                Box other = box.other;
                if (before != 0 || box.value != 100 + me || other == null || other.value != me) {
                    failures[me] = "thread " + me + " read value " + box.value + " and other "
                            + (other == null ? "null" : other.value) + " after its interrupt";
                }
            }, "interrupted-" + i);
            threads[i].start();
        }
        while (arrivals.count < THREADS) {
            Thread.sleep(1);
        }
        Thread.sleep(50); // into their spins, sleeps and waits
        for (int i = 0; i < THREADS; i++) {
            Box other = new Box();
            other.value = i;
            boxes[i].value = 100 + i;
            boxes[i].other = other;
            threads[i].interrupt();
        }
        return joinAndFirstFailure(threads, failures);
    }

    /** A thread of the program's own class that asks its peers of themselves. */
    static final class Peer extends Thread {
        final int me;
        Peer[] peers;
        String seen;

        Peer(int me) {
            super("peer-" + me);
            this.me = me;
        }

        @Override
        public void run() {
            Peer next = peers[(me + 1) % peers.length];
            seen = next.getName() + " " + next.getPriority() + " " + next.isDaemon() + " " + next.getId();
        }
    }

    /**
     * What a thread asks of another thread's object (its name, priority, daemon flag, id) is what
     * that thread is, also where the object is a copy: placed threads read "dist-template" and the
     * id and priority of a thread made on their node.
     */
    static String peersAskedOfThemselves() throws InterruptedException {
        Peer[] peers = new Peer[THREADS];
        String[] expected = new String[THREADS];
        for (int i = 0; i < THREADS; i++) {
            peers[i] = new Peer(i);
            peers[i].setPriority(Thread.MIN_PRIORITY + 1 + i);
            peers[i].setDaemon(i % 2 == 1);
        }
        for (int i = 0; i < THREADS; i++) {
            Peer next = peers[(i + 1) % THREADS];
            peers[i].peers = peers;
            expected[i] = next.getName() + " " + next.getPriority() + " " + next.isDaemon() + " " + next.getId();
        }
        for (Peer peer : peers) {
            peer.start();
        }
        for (int i = 0; i < THREADS; i++) {
            peers[i].join();
            if (!expected[i].equals(peers[i].seen)) {
                return "peer " + i + " saw its next as " + peers[i].seen + ", not " + expected[i];
            }
        }
        return null;
    }

    /** A stage of a chain: joins the stage before it, then carries its box's value on. */
    static final class Stage extends Thread {
        final int me;
        final Stage[] chain;
        final Box[] boxes;
        final String[] failures;

        Stage(int me, Stage[] chain, Box[] boxes, String[] failures) {
            super("stage-" + me);
            this.me = me;
            this.chain = chain;
            this.boxes = boxes;
            this.failures = failures;
        }

        @Override
        public void run() {
            int carried = 0;
            if (me > 0) {
                Stage before = chain[me - 1];
                try {
                    before.join();
                } catch (InterruptedException e) {
                    failures[me] = "stage " + me + " interrupted in its join";
                    return;
                }
                Box seen = boxes[me - 1];
                if (before.isAlive() || before.getState() != Thread.State.TERMINATED || seen.other == null
                        || seen.other.value != me - 1) {
                    failures[me] = "stage " + me + " after joining stage " + (me - 1) + ": alive " + before.isAlive()
                            + ", state " + before.getState() + ", its box's other " + (seen.other == null ? "null" : seen.other.value);
                    return;
                }
                carried = seen.value;
            } else {
                sleepQuietly(100); // the others' joins wait for it
            }
            Box other = new Box();
            other.value = me;
            boxes[me].other = other;
            boxes[me].value = carried + me + 1;
        }
    }

    /** Sleeps until {@link Interrupter} interrupts it, then reads what that thread wrote before. */
    static final class Sleeper extends Thread {
        final Box published;
        final Arrivals asleep = new Arrivals();
        String failure;

        Sleeper(Box published) {
            super("sleeper");
            this.published = published;
        }

        @Override
        public void run() {
            asleep.arrive();
            try {
                Thread.sleep(60_000);
                failure = "the sleeper slept 60 s: the interrupt did not reach it";
            } catch (InterruptedException e) {
                if (published.value != 42 || published.other == null || published.other.value != 7) {
                    failure = "the sleeper read " + published.value + " after its interrupt";
                }
            }
        }
    }

    static final class Interrupter extends Thread {
        final Sleeper sleeper;
        String failure;

        Interrupter(Sleeper sleeper) {
            super("interrupter");
            this.sleeper = sleeper;
        }

        @Override
        public void run() {
            while (sleeper.asleep.count == 0) {
                Thread.onSpinWait();
            }
            sleepQuietly(50); // into its sleep
            Box other = new Box();
            other.value = 7;
            sleeper.published.other = other;
            sleeper.published.value = 42;
            if (!sleeper.isAlive()) {
                failure = "the sleeper is not alive before its interrupt, state " + sleeper.getState();
            }
            sleeper.interrupt();
        }
    }

    /** Enters a monitor that main holds, so that main sees it {@code BLOCKED}. */
    static final class Blocked extends Thread {
        final Object lock;

        Blocked(Object lock) {
            super("blocked");
            this.lock = lock;
        }

        @Override
        public void run() {
            synchronized (lock) {
                lock.hashCode();
            }
        }
    }

    /**
     * Threads that join, poll and interrupt threads placed on other nodes, as a chain of stages or
     * a watchdog does: what the joined or interrupting thread wrote is seen after the join or the
     * interrupt (JLS 17.4.4), and the answers are what one JVM gives (a thread entering a monitor
     * another node's thread holds is {@code BLOCKED}). A worker thread that did any
     * of this stopped the run.
     */
    static String peersJoinedAndInterrupted() throws InterruptedException {
        Stage[] chain = new Stage[THREADS];
        Box[] boxes = new Box[THREADS];
        String[] failures = new String[THREADS];
        for (int i = 0; i < THREADS; i++) {
            boxes[i] = new Box();
            chain[i] = new Stage(i, chain, boxes, failures);
        }
        for (Stage stage : chain) {
            stage.start();
        }
        String blockedFailure = null;
        Object lock = new Object();
        Blocked blocked = new Blocked(lock);
        synchronized (lock) {
            blocked.start();
            long deadline = System.nanoTime() + 30_000_000_000L; // not a timing: the state must come, late or not
            while (blockedFailure == null && blocked.getState() != Thread.State.BLOCKED) {
                if (System.nanoTime() > deadline) {
                    blockedFailure = "a thread entering a monitor main holds is " + blocked.getState() + ", not BLOCKED";
                }
                Thread.sleep(1);
            }
        }
        blocked.join();
        Sleeper sleeper = new Sleeper(new Box());
        Interrupter interrupter = new Interrupter(sleeper);
        sleeper.start();
        interrupter.start();
        interrupter.join();
        sleeper.join();
        String failure = joinAndFirstFailure(chain, failures);
        int expected = THREADS * (THREADS + 1) / 2;
        if (failure == null && boxes[THREADS - 1].value != expected) {
            failure = "the chain carried " + boxes[THREADS - 1].value + ", not " + expected;
        }
        return failure != null ? failure : interrupter.failure != null ? interrupter.failure
                : sleeper.failure != null ? sleeper.failure : blockedFailure;
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A thread whose object is also its mailbox: senders call its synchronized methods. */
    static final class Mailbox extends Thread {
        private final long[] items = new long[4];
        private int count;
        private boolean closed;
        long sum;

        Mailbox(int me) {
            super("mailbox-" + me);
        }

        synchronized void send(long value) throws InterruptedException {
            while (count == items.length) {
                wait();
            }
            items[count++] = value;
            notifyAll();
        }

        synchronized void close() {
            closed = true;
            notifyAll();
        }

        private synchronized long receive() throws InterruptedException {
            while (count == 0 && !closed) {
                wait();
            }
            if (count == 0) {
                return -1;
            }
            long value = items[--count];
            notifyAll();
            return value;
        }

        @Override
        public void run() {
            try {
                for (long value; (value = receive()) >= 0; ) {
                    sum += value;
                }
            } catch (InterruptedException e) {
                sum = -1;
            }
        }
    }

    static final class MailSender extends Thread {
        final Mailbox[] boxes;
        final int me;

        MailSender(Mailbox[] boxes, int me) {
            super("sender-" + me);
            this.boxes = boxes;
            this.me = me;
        }

        @Override
        public void run() {
            try {
                for (int i = 0; i < 500; i++) {
                    boxes[(i + me) % boxes.length].send(me * 1000L + i);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * {@code Thread} objects used as locks: mailboxes that are threads, and main waiting on each
     * sender's object until it is not alive, as code written before {@code join} does (the JVM
     * notifies a thread's object when it ends). The home recorded a placed thread's end on the
     * transport's reader thread, which took the thread's monitor to notify it while a node's lease
     * held that monitor, and the lease's return waited behind it: the run hung.
     */
    static String threadObjectsAsMailboxes() throws InterruptedException {
        Mailbox[] boxes = new Mailbox[THREADS - 1];
        for (int i = 0; i < boxes.length; i++) {
            boxes[i] = new Mailbox(i);
            boxes[i].start();
        }
        MailSender[] senders = new MailSender[THREADS - 1];
        for (int i = 0; i < senders.length; i++) {
            senders[i] = new MailSender(boxes, i);
            senders[i].start();
        }
        for (MailSender sender : senders) {
            synchronized (sender) {
                while (sender.isAlive()) {
                    sender.wait();
                }
            }
        }
        long sum = 0;
        for (Mailbox box : boxes) {
            box.close();
        }
        for (Mailbox box : boxes) {
            synchronized (box) {
                while (box.isAlive()) {
                    box.wait();
                }
            }
            sum += box.sum;
        }
        long expected = 0;
        for (int me = 0; me < senders.length; me++) {
            for (int i = 0; i < 500; i++) {
                expected += me * 1000L + i;
            }
        }
        return sum == expected ? null : "the mailboxes summed " + sum + ", not " + expected;
    }

    /** One round's volatiles for Dekker and IRIW: fresh per round, so nothing needs resetting. */
    static final class Round {
        volatile int x;
        volatile int y;
    }

    /** How far each thread of a volatile case got, so they go round by round together. */
    static final class Progress {
        volatile int[] rounds;

        Progress(int threads) {
            rounds = new int[threads];
        }

        /**
         * Marks {@code me} at {@code round} (written back through the volatile field, which
         * publishes the element), then waits until every thread is there.
         */
        void reach(int me, int round) {
            int[] cells = rounds;
            cells[me] = round;
            rounds = cells;
            for (int other = 0; other < cells.length; other++) {
                while (rounds[other] < round) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    static final Round[] rounds(int count) {
        Round[] rounds = new Round[count];
        for (int i = 0; i < count; i++) {
            rounds[i] = new Round();
        }
        return rounds;
    }

    /** What thread {@code me} does in round {@code round} of a lock-step case. */
    interface RoundStep {
        void run(int me, int round);
    }

    /**
     * Runs {@code threads} threads for {@code rounds} rounds, all of them starting each round
     * together ({@link Progress}); returns when every thread has ended.
     */
    static void inLockStep(String name, int threads, int rounds, RoundStep step) throws InterruptedException {
        Progress progress = new Progress(threads);
        Thread[] started = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int me = t;
            started[t] = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    progress.reach(me, i + 1);
                    step.run(me, i);
                }
            }, name + "-" + t);
            started[t].start();
        }
        for (Thread t : started) {
            t.join();
        }
    }

    /**
     * Dekker on volatiles, round after round on two nodes: each thread writes its variable, then
     * reads the other's; on one JVM at least one of them sees the other's write.
     */
    static String dekker() throws InterruptedException {
        int count = 1_000;
        Round[] rounds = rounds(count);
        int[][] seen = new int[2][count];
        inLockStep("dekker", 2, count, (me, i) -> {
            Round round = rounds[i];
            if (me == 0) {
                round.x = 1;
                seen[me][i] = round.y;
            } else {
                round.y = 1;
                seen[me][i] = round.x;
            }
        });
        for (int i = 0; i < count; i++) {
            if (seen[0][i] == 0 && seen[1][i] == 0) {
                return "round " + i + ": each thread missed the other's write";
            }
        }
        return null;
    }

    /** Statics that subclasses' names reach: the fields live in this class's statics. */
    static class DeclaresStatics {
        static long total;
        static volatile int stage;
    }

    static final class NamesInheritedStatics extends DeclaresStatics {}

    /** A total and a volatile stage, each read and written through one name, as the caller's code spells it. */
    interface StaticsThroughName {
        void add(long amount);

        long total();

        void arrive();

        int stage();
    }

    /**
     * Static fields named through a subclass ({@code NamesInheritedStatics.total}, declared by its
     * superclass): the writes of every node reach the declaring class's statics. A worker marked
     * only the named class's statics as written, so its increments under the lock never left it,
     * and a volatile written that way was not carried either.
     */
    static String staticsNamedThroughSubclasses() throws InterruptedException {
        return countThrough(new StaticsThroughName() {
            public void add(long amount) { NamesInheritedStatics.total += amount; }
            public long total() { return NamesInheritedStatics.total; }
            public void arrive() { NamesInheritedStatics.stage = NamesInheritedStatics.stage + 1; }
            public int stage() { return NamesInheritedStatics.stage; }
        });
    }

    /**
     * The same through a public class of another package whose package-private superclass declares
     * the fields: this code may not name that superclass, so its rewritten accesses ask the runtime
     * which statics hold them. A worker whose named class had no statics of its own neither fetched
     * nor reported them, and its spinners hung.
     */
    static String staticsNamedAcrossPackages() throws InterruptedException {
        return countThrough(new StaticsThroughName() {
            public void add(long amount) { NamedAcrossPackages.total += amount; }
            public long total() { return NamedAcrossPackages.total; }
            public void arrive() { NamedAcrossPackages.stage = NamedAcrossPackages.stage + 1; }
            public int stage() { return NamedAcrossPackages.stage; }
        });
    }

    /** Four threads add to the total under a lock, then arrive at the stage and spin until all did. */
    private static String countThrough(StaticsThroughName statics) throws InterruptedException {
        int increments = 500;
        Object lock = new Object();
        int count = 4;
        Thread[] threads = new Thread[count];
        for (int t = 0; t < count; t++) {
            int me = t;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < increments; i++) {
                    synchronized (lock) {
                        statics.add(me + 1);
                    }
                }
                synchronized (lock) {
                    statics.arrive();
                }
                while (statics.stage() < count) {
                    Thread.onSpinWait();
                }
            }, "inherited-statics-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long expected = (long) increments * (1 + 2 + 3 + 4);
        if (statics.total() != expected || statics.stage() != count) {
            return "total " + statics.total() + " (expected " + expected + "), stage " + statics.stage();
        }
        return null;
    }

    /** Peterson's lock for two threads: two volatile flags and a volatile turn, guarding a plain counter. */
    static final class PetersonLock {
        volatile boolean wants0;
        volatile boolean wants1;
        volatile int turn;
        int counter;

        void lock(int me) {
            if (me == 0) {
                wants0 = true;
                turn = 1;
                while (wants1 && turn == 1) {
                    Thread.onSpinWait();
                }
            } else {
                wants1 = true;
                turn = 0;
                while (wants0 && turn == 0) {
                    Thread.onSpinWait();
                }
            }
        }

        void unlock(int me) {
            if (me == 0) {
                wants0 = false;
            } else {
                wants1 = false;
            }
        }
    }

    /**
     * Peterson's mutual exclusion, two pairs of threads with a lock each (at 4 nodes one pair then
     * runs on two workers): it needs every volatile write in the total order, one that writes the
     * value its node's copy already held too. A worker's twin saw no change in such a write of
     * {@code turn} while the home held the other thread's, the write was lost, and both threads
     * entered together: increments went missing.
     */
    static String petersonLocks() throws InterruptedException {
        int increments = 2_000;
        PetersonLock[] locks = {new PetersonLock(), new PetersonLock()};
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            PetersonLock lock = locks[t / 2];
            int me = t % 2;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < increments; i++) {
                    lock.lock(me);
                    lock.counter++;
                    lock.unlock(me);
                }
            }, "peterson-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (PetersonLock lock : locks) {
            if (lock.counter != 2 * increments) {
                return "a pair counted " + lock.counter + " of " + 2 * increments + " increments: both threads were in at once";
            }
        }
        return null;
    }

    /**
     * Independent reads of independent writes: two writers, two readers reading the variables in
     * opposite orders; all four agree on one order of the two writes.
     */
    static String iriw() throws InterruptedException {
        Round[] rounds = rounds(500);
        return iriw(rounds, rounds);
    }

    /**
     * IRIW with the two variables in two objects: a release or refresh that carries one object and
     * not the other, or a write a neighbour on the same node can read before the home has it, shows
     * here and not when both live in one object.
     */
    static String iriwSplit() throws InterruptedException {
        return iriw(rounds(500), rounds(500));
    }

    /** Writer 0 writes {@code xs[i].x}, writer 1 {@code ys[i].y}; the readers read them in opposite orders. */
    private static String iriw(Round[] xs, Round[] ys) throws InterruptedException {
        int count = xs.length;
        int[][] seen = new int[4][count];
        inLockStep("iriw", 4, count, (me, i) -> {
            Round x = xs[i];
            Round y = ys[i];
            switch (me) {
                case 0 -> x.x = 1;
                case 1 -> y.y = 1;
                case 2 -> seen[me][i] = x.x * 2 + y.y;
                default -> seen[me][i] = y.y * 2 + x.x;
            }
        });
        for (int i = 0; i < count; i++) {
            // 2 = "my first variable written, my second not": x before y for reader 2, y before x for reader 3
            if (seen[2][i] == 2 && seen[3][i] == 2) {
                return "round " + i + ": the readers saw the two writes in opposite orders";
            }
        }
        return null;
    }

    /** A monitor and the data it guards, handed round by every thread and main in turn. */
    static final class Baton {
        int passes;
        final long[] trail;

        Baton(int length) {
            trail = new long[length];
        }
    }

    /**
     * A lock handed over in a fixed ring through every node, the home's main thread included (it
     * waits for the master's monitor like any home thread): each holder sees every write of the
     * holders before it.
     */
    static String lockHandOverChain() throws InterruptedException {
        int parties = THREADS + 1;
        int rounds = 40;
        Baton baton = new Baton(parties * rounds);
        String[] failures = new String[parties];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> failures[mine] = passBaton(baton, mine, parties, rounds), "baton-" + i);
            threads[i].start();
        }
        failures[THREADS] = passBaton(baton, THREADS, parties, rounds);
        String failure = joinAndFirstFailure(threads, failures);
        if (failure != null) {
            return failure;
        }
        return baton.passes == parties * rounds ? null : "the baton was passed " + baton.passes + " times";
    }

    private static String passBaton(Baton baton, int me, int parties, int rounds) {
        for (int r = 0; r < rounds; r++) {
            synchronized (baton) {
                while (baton.passes % parties != me) {
                    try {
                        baton.wait();
                    } catch (InterruptedException e) {
                        return "holder " + me + " was interrupted";
                    }
                }
                for (int k = 0; k < baton.passes; k++) {
                    if (baton.trail[k] != k + 1) {
                        return "holder " + me + " saw trail[" + k + "] = " + baton.trail[k] + " after " + baton.passes + " passes";
                    }
                }
                baton.trail[baton.passes] = baton.passes + 1;
                baton.passes++;
                baton.notifyAll();
            }
        }
        return null;
    }

    static String reentrantSynchronized() throws InterruptedException {
        Counter counter = new Counter();
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            threads[i] = new Thread(() -> {
                for (int n = 0; n < 10_000; n++) {
                    counter.addTwiceReentrantly();
                }
            }, "reentrant-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return counter.value == THREADS * 20_000 ? null : "counter is " + counter.value;
    }

    /**
     * Each thread counts under the monitor of a counter it made itself, which becomes shared while
     * the thread is busy with it (the thread's own field reaches it, and the thread's object is
     * shared): the thread's enters must not name it to the home before the home has it.
     */
    static String ownMonitorsMadeByTheThreads() throws InterruptedException {
        OwnCounter[] threads = new OwnCounter[THREADS];
        for (int i = 0; i < THREADS; i++) {
            threads[i] = new OwnCounter("own-counter-" + i);
            threads[i].start();
        }
        for (OwnCounter t : threads) {
            t.join();
        }
        for (OwnCounter t : threads) {
            if (t.counter.value != 20_000) {
                return t.getName() + " counted " + t.counter.value;
            }
        }
        return null;
    }

    static final class OwnCounter extends Thread {
        Counter counter;

        OwnCounter(String name) {
            super(name);
        }

        @Override
        public void run() {
            counter = new Counter();
            for (int n = 0; n < 10_000; n++) {
                counter.addTwiceReentrantly();
            }
        }
    }

    /**
     * Two threads each make a box, lock it, publish it through a volatile field and only then fill
     * it; two others take each box's monitor as soon as they see it: they must find it filled. A
     * box becomes shared while its maker holds its monitor, which no other node may then take.
     */
    static String publishedWhileLocked() throws InterruptedException {
        Shelf[] shelves = {new Shelf(), new Shelf()};
        String[] failures = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = i < shelves.length
                    ? new Thread(() -> makeLockedAndFill(shelves[mine]), "box-maker-" + i)
                    : new Thread(() -> failures[mine] = takeEveryBox(shelves), "box-taker-" + i);
            threads[i].start();
        }
        return joinAndFirstFailure(threads, failures);
    }

    static final class Shelf {
        volatile Box box;
    }

    private static void makeLockedAndFill(Shelf shelf) {
        Box box = new Box();
        synchronized (box) {
            shelf.box = box;
            long until = System.nanoTime() + 200_000_000L; // long enough for the box to be shared meanwhile
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            box.value = 42;
            box.ready = true;
        }
    }

    private static String takeEveryBox(Shelf[] shelves) {
        for (Shelf shelf : shelves) {
            Box box;
            while ((box = shelf.box) == null) {
                Thread.onSpinWait();
            }
            synchronized (box) {
                if (!box.ready || box.value != 42) {
                    return Thread.currentThread().getName() + " took the monitor of a box its maker still held (ready "
                            + box.ready + ", value " + box.value + ")";
                }
            }
        }
        return null;
    }

    /**
     * Two clients each make a request, lock it, queue it and wait on it for the reply; two servers
     * take requests and answer under the request's monitor, notifying. A request becomes shared
     * while its client holds its monitor (before or during the wait): the servers' notifications
     * must reach the client wherever each runs.
     */
    static String requestsWaitedOnByTheirMakers() throws InterruptedException {
        int perClient = 50;
        RequestQueue queue = new RequestQueue();
        String[] failures = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = i % 2 == 0
                    ? new Thread(() -> failures[mine] = askAndAwait(queue, mine, perClient), "client-" + i)
                    : new Thread(() -> failures[mine] = answer(queue, perClient), "server-" + i);
            threads[i].start();
        }
        return joinAndFirstFailure(threads, failures);
    }

    static final class Request {
        final int question;
        int answer;
        boolean done;

        Request(int question) {
            this.question = question;
        }
    }

    static final class RequestQueue {
        private final Request[] items = new Request[8];
        private int head;
        private int size;

        synchronized void put(Request request) throws InterruptedException {
            while (size == items.length) {
                wait();
            }
            items[(head + size++) % items.length] = request;
            notifyAll();
        }

        synchronized Request take() throws InterruptedException {
            while (size == 0) {
                wait();
            }
            Request request = items[head];
            items[head] = null;
            head = (head + 1) % items.length;
            size--;
            notifyAll();
            return request;
        }
    }

    private static String askAndAwait(RequestQueue queue, int client, int requests) {
        try {
            for (int i = 0; i < requests; i++) {
                Request request = new Request(client * 1000 + i);
                synchronized (request) {
                    queue.put(request);
                    while (!request.done) {
                        request.wait();
                    }
                    if (request.answer != 2 * request.question) {
                        return "request " + request.question + " was answered " + request.answer;
                    }
                }
            }
            return null;
        } catch (InterruptedException e) {
            return Thread.currentThread().getName() + " was interrupted";
        }
    }

    private static String answer(RequestQueue queue, int requests) {
        try {
            for (int i = 0; i < requests; i++) {
                Request request = queue.take();
                synchronized (request) {
                    request.answer = 2 * request.question;
                    request.done = true;
                    request.notifyAll();
                }
            }
            return null;
        } catch (InterruptedException e) {
            return Thread.currentThread().getName() + " was interrupted";
        }
    }

    static String staticSynchronized() throws InterruptedException {
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            threads[i] = new Thread(() -> {
                for (int n = 0; n < 10_000; n++) {
                    Counter.addStatic();
                }
            }, "static-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return Counter.total == THREADS * 10_000L ? null : "static counter is " + Counter.total;
    }

    static String classInitializerOnce() throws InterruptedException {
        Thread[] threads = new Thread[THREADS];
        int[] seen = new int[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> seen[mine] = Initialized.ID, "clinit-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            if (seen[i] != 1) {
                return "thread " + i + " saw ID " + seen[i];
            }
        }
        return Initialized.runs == 1 ? null : "the class initializer ran " + Initialized.runs + " times";
    }

    static String identityByTwoPaths() throws InterruptedException {
        Box shared = new Box();
        Box left = new Box();
        Box right = new Box();
        left.other = shared;
        right.other = shared;
        boolean[] same = new boolean[1];
        Thread t = new Thread(() -> same[0] = left.other == right.other, "identity");
        t.start();
        t.join();
        return same[0] ? null : "two paths to one object gave two objects";
    }

    /** Strings travel by value, but a literal stays the pool's string where it arrives, and one made with new stays another. */
    @SuppressWarnings("StringEquality")
    static String stringIdentity() throws InterruptedException {
        String[] items = {"literal", "literal", new String("literal")};
        boolean[] seen = new boolean[3];
        Thread t = new Thread(() -> {
            seen[0] = items[0] == items[1];
            seen[1] = items[0] == "literal";
            seen[2] = items[2] != "literal";
        }, "strings");
        t.start();
        t.join();
        return seen[0] && seen[1] && seen[2] ? null
                : "one literal twice, the literal, a new string: " + seen[0] + ", " + seen[1] + ", " + seen[2];
    }

    /**
     * BigInteger and BigDecimal travel by value, as strings do: main's number read by the threads,
     * theirs stored into shared arrays and read by main (a thread storing one stays on its node).
     */
    static String bigNumbersByValue() throws InterruptedException {
        BigInteger base = BigInteger.valueOf(3).pow(100);
        BigInteger[] powers = new BigInteger[THREADS];
        BigDecimal[] sevenths = new BigDecimal[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                powers[mine] = base.multiply(BigInteger.TWO.pow(70 + mine)).negate();
                sevenths[mine] = new BigDecimal(powers[mine]).divide(BigDecimal.valueOf(7), 40, RoundingMode.HALF_EVEN);
            }, "big-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            BigInteger power = base.multiply(BigInteger.TWO.pow(70 + i)).negate();
            BigDecimal seventh = new BigDecimal(power).divide(BigDecimal.valueOf(7), 40, RoundingMode.HALF_EVEN);
            if (!power.equals(powers[i]) || !seventh.equals(sevenths[i]) || sevenths[i].scale() != 40) {
                return "thread " + i + " stored " + powers[i] + " and " + sevenths[i] + ", expected " + power + " and " + seventh;
            }
        }
        return null;
    }

    /** A string of every kind of char for thread {@code i}: ASCII, accented, CJK, a pair, and surrogates alone. */
    private static String everyKindOfChar(int i) {
        return "t" + i + " h\u00e9llo \u65e5\u672c \uD83D\uDE00 lone-high \uD800" + i + " lone-low \uDC00 reversed \uDE00\uD83D end\uD801";
    }

    /**
     * Strings travel by value, and every Java string must arrive as it left: a surrogate without
     * its pair is not UTF-8, and strings sent as UTF-8 arrived with '?' in its place.
     */
    static String stringsWithUnpairedSurrogates() throws InterruptedException {
        String[] made = new String[THREADS];
        String[] seen = new String[THREADS];
        String given = everyKindOfChar(-1);
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                made[mine] = everyKindOfChar(mine);
                seen[mine] = given;
            }, "strings-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            if (!everyKindOfChar(i).equals(made[i]) || !given.equals(seen[i])) {
                return "thread " + i + " made " + made[i].chars().mapToObj(Integer::toHexString).toList()
                        + " and saw " + seen[i].chars().mapToObj(Integer::toHexString).toList();
            }
        }
        return null;
    }

    /** The JDK's enum constants travel by name, as the program's do: the same constants on every node. */
    static String jdkEnumConstantsByValue() throws InterruptedException {
        java.time.DayOfWeek[] days = new java.time.DayOfWeek[THREADS];
        TimeUnit[] units = new TimeUnit[THREADS];
        TimeUnit given = TimeUnit.MICROSECONDS;
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                days[mine] = java.time.DayOfWeek.of(mine + 1);
                units[mine] = given == TimeUnit.MICROSECONDS ? TimeUnit.values()[mine] : null;
            }, "jdk-enums-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            if (days[i] != java.time.DayOfWeek.of(i + 1) || units[i] != TimeUnit.values()[i]) {
                return "thread " + i + " stored " + days[i] + " and " + units[i];
            }
        }
        return null;
    }

    /** A sentinel made with {@code new String}: equal to a literal, the same object as no other string. */
    static final String END_OF_WORK = new String("end");

    /**
     * Strings, big numbers and boxes travel by value, yet a program may compare them by identity:
     * the sentinel it made, sent out and back, is still that object ({@code ==}); an equal string is
     * not; the value one thread stored twice is one object where it arrives; {@code BigInteger.ONE}
     * is {@code BigInteger.ONE}; an {@code Integer} end marker beyond the JDK's cache, captured by
     * the task and found in shared data, is one object. Before, every arrival made a new object, and a consumer waiting for
     * {@code line == END_OF_WORK} never stopped.
     */
    static String identityOfValuesThatTravelByValue() throws InterruptedException {
        Object[][] seen = new Object[THREADS][];
        boolean[][] compared = new boolean[THREADS][];
        Object[] given = {END_OF_WORK, "end", new BigInteger("123456789012345678901234567890"), Integer.valueOf(123_456),
            List.of(1, 2), new IllegalStateException("given")};
        Integer pill = (Integer) given[3];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                String made = new String("made-" + mine);
                BigInteger big = BigInteger.TEN.pow(30 + mine);
                Double box = 0.5 + mine;
                List<String> list = List.of("made", "by", "thread-" + mine);
                RuntimeException failure = new RuntimeException("thread-" + mine);
                compared[mine] = new boolean[] {given[0] == END_OF_WORK, given[1] != END_OF_WORK, given[0].equals(given[1]),
                        given[3] == pill};
                seen[mine] = new Object[] {given[0], given[2], made, made, big, big, BigInteger.ONE, BigDecimal.TEN, pill, box, box,
                    list, list, given[4], failure, failure, given[5]};
            }, "identities-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            Object[] s = seen[i];
            boolean[] c = compared[i];
            if (!c[0] || !c[1] || !c[2] || !c[3] || s[0] != END_OF_WORK || s[1] != given[2] || s[2] != s[3] || s[4] != s[5]
                    || s[6] != BigInteger.ONE || s[7] != BigDecimal.TEN || !s[2].equals("made-" + i) || s[8] != given[3]
                    || s[9] != s[10] || s[11] != s[12] || s[13] != given[4] || s[14] != s[15] || s[16] != given[5]) {
                return "thread " + i + " compared " + java.util.Arrays.toString(c) + " and stored " + java.util.Arrays.toString(s);
            }
        }
        return null;
    }

    record Part(int index, long sum, String label) {}

    /** A JDK superclass without state, as {@code Record} is: the object's fields are its class's own. */
    static final class Fraction extends Number {
        long numerator;
        long denominator;

        @Override
        public int intValue() {
            return (int) longValue();
        }

        @Override
        public long longValue() {
            return numerator / denominator;
        }

        @Override
        public float floatValue() {
            return (float) doubleValue();
        }

        @Override
        public double doubleValue() {
            return (double) numerator / denominator;
        }
    }

    /**
     * Records and a {@code Number} subclass made by the threads and read by main, a record made by
     * main and read by the threads; each thread also formats a list it made (handed to the JDK in a
     * varargs array, it keeps no thread home).
     */
    static String recordsAndFieldlessJdkSuperclasses() throws InterruptedException {
        Part seed = new Part(-1, 100, "seed");
        Part[] parts = new Part[THREADS];
        Fraction[] fractions = new Fraction[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                List<Integer> squares = new ArrayList<>();
                long sum = seed.sum();
                for (int k = 0; k <= mine; k++) {
                    squares.add(k * k);
                    sum += k * k;
                }
                parts[mine] = new Part(mine, sum, String.format("%s squares %s", seed.label(), squares));
                Fraction fraction = new Fraction();
                fraction.numerator = mine;
                fraction.denominator = THREADS;
                fractions[mine] = fraction;
            }, "record-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        List<Integer> squares = new ArrayList<>();
        long sum = seed.sum();
        for (int i = 0; i < THREADS; i++) {
            squares.add(i * i);
            sum += i * i;
            Part expected = new Part(i, sum, "seed squares " + squares);
            if (!expected.equals(parts[i]) || fractions[i].doubleValue() != (double) i / THREADS) {
                return "thread " + i + " stored " + parts[i] + " and " + fractions[i].doubleValue() + ", expected " + expected;
            }
        }
        return null;
    }

    /**
     * The JDK's immutable collections travel by value: a captured {@code List.of} and {@code Map.of}
     * read by the threads, one holding an application object (which stays one object: every
     * thread's increment reaches it), and lists, sets, maps and a {@code toList()} with a null
     * made by the threads and read by main, of the classes the same calls make on one JVM.
     */
    static String immutableCollectionsByValue() throws InterruptedException {
        List<Integer> offsets = List.of(0, 100, 200, 300);
        Map<String, Integer> weights = Map.of("a", 1, "b", 2);
        List<Object> holding = List.of(new Box(), "label");
        Object[] made = new Object[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                Box box = (Box) holding.get(0);
                synchronized (box) {
                    box.value++;
                }
                int from = offsets.get(mine) * weights.get("b");
                made[mine] = List.of(List.of(from, from + 1), Set.of(mine), Map.of("id", mine, "from", from),
                        Stream.of("n", null).toList(), List.of());
            }, "immutable-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        int count = ((Box) holding.get(0)).value;
        if (count != THREADS) {
            return "the box in a List.of was incremented " + count + " times, expected " + THREADS;
        }
        for (int i = 0; i < THREADS; i++) {
            int from = offsets.get(i) * 2;
            List<Object> expected = List.of(List.of(from, from + 1), Set.of(i), Map.of("id", i, "from", from),
                    Stream.of("n", null).toList(), List.of());
            if (!expected.equals(made[i])) {
                return "thread " + i + " made " + made[i] + ", expected " + expected;
            }
            List<?> got = (List<?>) made[i];
            for (int k = 0; k < expected.size(); k++) {
                if (got.get(k).getClass() != expected.get(k).getClass()) {
                    return "thread " + i + "'s element " + k + " is a " + got.get(k).getClass() + ", not a " + expected.get(k).getClass();
                }
            }
        }
        return null;
    }

    /**
     * Main waits for each thread on its Thread object, as join itself does, which the JVM notifies
     * when the thread ends: a thread placed on another node ends there.
     */
    static String waitsOnThreadObjects() throws InterruptedException {
        long[] sums = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                long sum = 0;
                for (int k = 0; k < 1_000_000; k++) {
                    sum += k % (mine + 2);
                }
                sums[mine] = sum;
            }, "waited-on-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            synchronized (t) {
                while (t.isAlive()) {
                    t.wait();
                }
            }
        }
        for (int i = 0; i < THREADS; i++) {
            long sum = 0;
            for (int k = 0; k < 1_000_000; k++) {
                sum += k % (i + 2);
            }
            if (sums[i] != sum) {
                return "thread " + i + " summed " + sums[i] + ", expected " + sum;
            }
        }
        return null;
    }

    static long depth(int frames) {
        return frames == 0 ? 0 : 1 + depth(frames - 1);
    }

    /** A Thread subclass asking its constructor for a large stack, as a recursive search does. */
    static final class DeepThread extends Thread {
        long reached;

        DeepThread(String name) {
            super(null, null, name, 1L << 27);
        }

        @Override
        public void run() {
            try {
                reached = depth(300_000);
            } catch (StackOverflowError e) {
                reached = -1;
            }
        }
    }

    /**
     * Threads given a 128 MB stack (through Thread's constructor, and a Thread subclass's) recurse
     * 300,000 frames deep, which overflows the default stack: a thread on another node must get
     * the size the program asked for.
     */
    static String stackSizesAskedFor() throws InterruptedException {
        long[] reached = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = i % 2 == 0 ? new Thread(null, () -> {
                try {
                    reached[mine] = depth(300_000);
                } catch (StackOverflowError e) {
                    reached[mine] = -1;
                }
            }, "deep-" + i, 1L << 27) : new DeepThread("deep-" + i);
            threads[i].start();
        }
        for (int i = 0; i < THREADS; i++) {
            threads[i].join();
            long depth = threads[i] instanceof DeepThread deep ? deep.reached : reached[i];
            if (depth != 300_000) {
                return "thread " + i + " reached depth " + depth + " (-1: its stack overflowed), expected 300000";
            }
        }
        return null;
    }

    /**
     * Threads of a group of the program's own ask their group's name and its parent's, as a thread
     * prints itself ({@code Thread.toString()}); once they ended, their Thread has no group, as the
     * JVM leaves an exited thread.
     */
    static String threadGroups() throws InterruptedException {
        ThreadGroup solvers = new ThreadGroup("solvers");
        String[] seen = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(solvers, () -> {
                ThreadGroup group = Thread.currentThread().getThreadGroup();
                seen[mine] = group.getName() + " in " + group.getParent().getName();
            }, "grouped-" + i);
            threads[i].start();
        }
        String expected = "solvers in " + Thread.currentThread().getThreadGroup().getName();
        for (int i = 0; i < THREADS; i++) {
            threads[i].join();
            if (!expected.equals(seen[i])) {
                return "thread " + i + " saw its group as " + seen[i] + ", expected " + expected;
            }
            if (threads[i].getThreadGroup() != null) {
                return "thread " + i + " ended but still says it is in " + threads[i].getThreadGroup().getName();
            }
        }
        return null;
    }

    static String identityHash() throws InterruptedException {
        Box box = new Box();
        int hash = box.hashCode();
        int identity = System.identityHashCode(box);
        int[] seen = new int[2];
        Thread t = new Thread(() -> {
            seen[0] = box.hashCode();
            seen[1] = System.identityHashCode(box);
        }, "hash");
        t.start();
        t.join();
        if (hash != identity) {
            return "hashCode " + hash + " differs from identityHashCode " + identity;
        }
        return seen[0] == hash && seen[1] == identity ? null
                : "the thread saw " + seen[0] + "/" + seen[1] + ", main " + hash + "/" + identity;
    }

    /** Every thread writes every THREADS-th element of one small array: one chunk, written by every node. */
    static String oneChunkManyWriters() throws InterruptedException {
        int[] cells = new int[THREADS * 64];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                for (int e = mine; e < cells.length; e += THREADS) {
                    cells[e] = e * 3 + 1;
                }
            }, "interleaved-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int e = 0; e < cells.length; e++) {
            if (cells[e] != e * 3 + 1) {
                return "element " + e + " is " + cells[e];
            }
        }
        return null;
    }

    private static void startAndJoin(Thread[] threads) throws InterruptedException {
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    /**
     * A large array, sent to workers on demand, whose first chunk every node writes in two phases:
     * first each thread writes 7 into its own elements, then, after start and join, each writes 0
     * into its neighbour's, and the values of the first phase must be gone. A node that still held
     * that chunk as it got it (zeros) and took a 0 written over the neighbour's 7 for no change would
     * leave the 7 standing; and elements far apart that no node wrote since must keep main's values.
     */
    static String oneChunkWrittenByTwoNodes() throws InterruptedException {
        int[] large = new int[8 << 20]; // 32 MB: sent on demand
        for (int e = 1024; e < large.length; e += 1 << 20) {
            large[e] = e;
        }
        // Two tasks, not one with a parameter: the threads of a task that ran briefly are kept home
        // after four of them (ShortThreads), and these must run on every node.
        Thread[] sevens = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            sevens[i] = new Thread(() -> {
                for (int e = mine; e < 256; e += THREADS) {
                    large[e] = 7;
                }
            }, "chunk-writer-" + i);
        }
        startAndJoin(sevens);
        Thread[] zeros = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int neighbours = (i + 1) % THREADS;
            zeros[i] = new Thread(() -> {
                for (int e = neighbours; e < 256; e += THREADS) {
                    large[e] = 0;
                }
            }, "chunk-clearer-" + i);
        }
        startAndJoin(zeros);
        for (int e = 0; e < 256; e++) {
            if (large[e] != 0) {
                return "element " + e + " is " + large[e] + " after every node wrote 0 over the 7s";
            }
        }
        Thread reader = new Thread(() -> {
            long s = 0;
            for (int e = 1024; e < large.length; e += 1 << 20) {
                s += large[e] - e;
            }
            large[0] = (int) s;
        }, "far-reader");
        reader.start();
        reader.join();
        return large[0] == 0 ? null : "a thread saw main's far elements off by " + large[0];
    }

    /**
     * A large array that main writes after it became shared, one element per thread far apart,
     * handed over under a lock: each thread must see main's element and main every thread's.
     */
    static String largeArrayFewElements() throws InterruptedException {
        long[] large = new long[1 << 17]; // 1 MB
        Box lock = new Box();
        boolean[] go = new boolean[1];
        long[] seen = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        int stride = large.length / THREADS;
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                synchronized (lock) {
                    while (!go[0]) {
                        try {
                            lock.wait();
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    seen[mine] = large[mine * stride + 1];
                }
                large[mine * stride + 2] = 1000L + mine;
            }, "large-" + i);
            threads[i].start();
        }
        synchronized (lock) {
            for (int i = 0; i < THREADS; i++) {
                large[i * stride + 1] = 500L + i;
            }
            go[0] = true;
            lock.notifyAll();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            if (seen[i] != 500L + i) {
                return "thread " + i + " saw " + seen[i] + " where main wrote " + (500L + i);
            }
            if (large[i * stride + 2] != 1000L + i) {
                return "main saw " + large[i * stride + 2] + " where thread " + i + " wrote " + (1000L + i);
            }
        }
        return null;
    }

    /** Threads write their parts of shared arrays through JDK code: Arrays.fill, System.arraycopy, a wrapping buffer. */
    static String arraysWrittenByJdkCode() throws InterruptedException {
        int part = 3000;
        int[] filled = new int[THREADS * part];
        int[] copied = new int[THREADS * part];
        byte[] wrapped = new byte[THREADS * 8];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                java.util.Arrays.fill(filled, mine * part, (mine + 1) * part, mine + 1);
                int[] source = new int[part];
                java.util.Arrays.fill(source, 10 * (mine + 1));
                System.arraycopy(source, 0, copied, mine * part, part);
                java.nio.ByteBuffer.wrap(wrapped).putLong(mine * 8, 77L + mine);
            }, "jdk-writer-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        java.nio.ByteBuffer read = java.nio.ByteBuffer.wrap(wrapped);
        for (int i = 0; i < THREADS; i++) {
            if (filled[i * part + part - 1] != i + 1 || copied[i * part + part - 1] != 10 * (i + 1)
                    || read.getLong(i * 8) != 77L + i) {
                return "part " + i + ": filled " + filled[i * part + part - 1] + ", copied " + copied[i * part + part - 1]
                        + ", wrapped " + read.getLong(i * 8);
            }
        }
        return null;
    }

    static final class NamedWorker extends Thread {
        final String[] seen;
        final int slot;

        NamedWorker(String name, String[] seen, int slot) {
            super(name);
            this.seen = seen;
            this.slot = slot;
            setPriority(Thread.NORM_PRIORITY + 1);
        }

        @Override
        public void run() {
            seen[slot] = getName() + "/" + Thread.currentThread().getName() + "/" + getPriority() + "/" + isDaemon();
        }
    }

    /** A Thread subclass placed anywhere has its name, priority and daemon flag there. */
    static String threadNames() throws InterruptedException {
        String[] seen = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            threads[i] = new NamedWorker("named-" + i, seen, i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            String expected = "named-" + i + "/named-" + i + "/" + (Thread.NORM_PRIORITY + 1) + "/false";
            if (!expected.equals(seen[i])) {
                return "thread " + i + " saw itself as " + seen[i] + ", not " + expected;
            }
        }
        return null;
    }

    static final class Recipe {
        java.util.function.IntBinaryOperator combine;
        java.util.function.IntUnaryOperator finish = Math::abs;
    }

    /**
     * Tasks that reach lambdas other than their own: one captured, one in a shared object's field
     * (a method reference), one put there by a thread on its node for main to call.
     */
    static String lambdasReachedByTasks() throws InterruptedException {
        Recipe recipe = new Recipe();
        int offset = 1000;
        recipe.combine = (a, b) -> a * 31 + b + offset;
        java.util.function.IntUnaryOperator square = x -> -x * x;
        int[] results = new int[THREADS];
        java.util.function.IntUnaryOperator[] made = new java.util.function.IntUnaryOperator[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                results[mine] = recipe.finish.applyAsInt(square.applyAsInt(recipe.combine.applyAsInt(mine, 7)));
                int step = mine + 1;
                made[mine] = x -> x * step;
            }, "lambda-user-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            int expected = Math.abs(-(i * 31 + 7 + offset) * (i * 31 + 7 + offset));
            if (results[i] != expected) {
                return "thread " + i + " computed " + results[i] + ", not " + expected;
            }
            if (made[i] == null || made[i].applyAsInt(10) != 10 * (i + 1)) {
                return "the lambda thread " + i + " made gives " + (made[i] == null ? "nothing" : made[i].applyAsInt(10));
            }
        }
        return null;
    }

    /**
     * Plain {@code java.lang.Object}s as locks, the common idiom: one made by main and one made by a
     * thread (perhaps on a worker) exclude every node's threads, a wait on one is woken by a
     * notifyAll from another node, and both keep their identity hash everywhere.
     */
    static String plainObjectLocks() throws InterruptedException {
        Object lock = new Object();
        int rounds = 500;
        long[] counts = new long[2];
        int[] arrived = new int[1];
        Object[] made = new Object[1];
        int[][] hashes = new int[THREADS][];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                if (mine == 0) {
                    synchronized (lock) {
                        made[0] = new Object();
                    }
                }
                for (int r = 0; r < rounds; r++) {
                    synchronized (lock) {
                        counts[0]++;
                    }
                }
                Object theirs;
                synchronized (lock) {
                    arrived[0]++;
                    lock.notifyAll();
                    while (arrived[0] < THREADS) {
                        try {
                            lock.wait();
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    theirs = made[0];
                }
                for (int r = 0; r < rounds; r++) {
                    synchronized (theirs) {
                        counts[1]++;
                    }
                }
                hashes[mine] = new int[] {lock.hashCode(), System.identityHashCode(lock), theirs.hashCode()};
            }, "plain-lock-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (counts[0] != THREADS * rounds || counts[1] != THREADS * rounds) {
            return "counted " + counts[0] + " and " + counts[1] + " under the locks, not " + THREADS * rounds + " each";
        }
        int[] expected = {lock.hashCode(), System.identityHashCode(lock), made[0].hashCode()};
        for (int i = 0; i < THREADS; i++) {
            if (!java.util.Arrays.equals(hashes[i], expected)) {
                return "thread " + i + " saw the hashes " + java.util.Arrays.toString(hashes[i]) + ", main "
                        + java.util.Arrays.toString(expected);
            }
        }
        return null;
    }

    static final ThreadLocal<int[]> SUPPLIED_LOCAL = ThreadLocal.withInitial(() -> new int[1]);
    static final ThreadLocal<String> PLAIN_LOCAL = new ThreadLocal<>();
    static final ThreadLocal<StringBuilder> SUBCLASS_LOCAL = new Prefixed("start");

    /** An application subclass of ThreadLocal with state of its own. */
    static final class Prefixed extends ThreadLocal<StringBuilder> {
        private final String prefix;

        Prefixed(String prefix) {
            this.prefix = prefix;
        }

        @Override
        protected StringBuilder initialValue() {
            return new StringBuilder(prefix);
        }
    }

    /**
     * Thread-locals reached by threads on every node: a {@code withInitial} one, a plain one and an
     * application subclass. Each thread's values are its own (initial values made where it runs),
     * main's stay as main set them, and the thread-locals keep their identity and identity hash
     * wherever a reference to them travels.
     */
    static String threadLocals() throws InterruptedException {
        int rounds = 1000;
        PLAIN_LOCAL.set("main");
        SUPPLIED_LOCAL.get()[0] = -1;
        SUBCLASS_LOCAL.get().append("-main");
        String[] seen = new String[THREADS];
        Object[][] theirs = new Object[THREADS][];
        int[][] hashes = new int[THREADS][];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                for (int r = 0; r < rounds; r++) {
                    SUPPLIED_LOCAL.get()[0]++;
                }
                String before = PLAIN_LOCAL.get();
                PLAIN_LOCAL.set("t" + mine);
                SUBCLASS_LOCAL.get().append('-').append(mine);
                seen[mine] = before + " " + SUPPLIED_LOCAL.get()[0] + " " + PLAIN_LOCAL.get() + " " + SUBCLASS_LOCAL.get();
                theirs[mine] = new Object[] {SUPPLIED_LOCAL, PLAIN_LOCAL, SUBCLASS_LOCAL};
                hashes[mine] = new int[] {System.identityHashCode(SUPPLIED_LOCAL), SUPPLIED_LOCAL.hashCode(),
                        PLAIN_LOCAL.hashCode(), SUBCLASS_LOCAL.hashCode()};
            }, "thread-local-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        int[] expected = {System.identityHashCode(SUPPLIED_LOCAL), SUPPLIED_LOCAL.hashCode(), PLAIN_LOCAL.hashCode(),
                SUBCLASS_LOCAL.hashCode()};
        for (int i = 0; i < THREADS; i++) {
            String want = "null " + rounds + " t" + i + " start-" + i;
            if (!want.equals(seen[i])) {
                return "thread " + i + " saw '" + seen[i] + "', not '" + want + "'";
            }
            if (theirs[i][0] != SUPPLIED_LOCAL || theirs[i][1] != PLAIN_LOCAL || theirs[i][2] != SUBCLASS_LOCAL) {
                return "thread " + i + "'s thread-locals came back as other objects";
            }
            if (!java.util.Arrays.equals(hashes[i], expected)) {
                return "thread " + i + " saw the hashes " + java.util.Arrays.toString(hashes[i]) + ", main "
                        + java.util.Arrays.toString(expected);
            }
        }
        String mains = PLAIN_LOCAL.get() + " " + SUPPLIED_LOCAL.get()[0] + " " + SUBCLASS_LOCAL.get();
        return mains.equals("main -1 start-main") ? null : "main's values became '" + mains + "'";
    }

    /** A thread of the program's own class, which leaves hashCode to Object through Thread. */
    static final class HashingThread extends Thread {
        final Object lock;
        int[] seen;

        HashingThread(int i, Object lock) {
            super("hashing-thread-" + i);
            this.lock = lock;
        }

        @Override
        public void run() {
            seen = new int[] {hashCode(), System.identityHashCode(this), lock.hashCode()};
        }
    }

    /**
     * Threads of an application class under {@code Thread}, which leaves {@code hashCode} to
     * {@code Object}, hash the same on every node: a worker's {@code hashCode()} of its copy was
     * that copy's own identity hash, so a thread that put itself in a hash set made at the home
     * would not have found itself there.
     */
    static String hashesUnderJdkSuperclasses() throws InterruptedException {
        Object lock = new Object();
        HashingThread[] threads = new HashingThread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            threads[i] = new HashingThread(i, lock);
            threads[i].start();
        }
        for (HashingThread t : threads) {
            t.join();
        }
        for (HashingThread t : threads) {
            int[] expected = {t.hashCode(), System.identityHashCode(t), lock.hashCode()};
            if (!java.util.Arrays.equals(t.seen, expected)) {
                return t.getName() + " saw the hashes " + java.util.Arrays.toString(t.seen) + ", main "
                        + java.util.Arrays.toString(expected);
            }
        }
        return null;
    }

    /** A thread of the program's own class that asks about itself and spins until interrupted. */
    static final class SelfAware extends Thread {
        final Object lock;
        final long[] sum;
        volatile boolean spinning;
        String seen;

        SelfAware(int i, Object lock, long[] sum) {
            super("self-aware-" + i);
            this.lock = lock;
            this.sum = sum;
        }

        @Override
        public void run() {
            boolean alive = isAlive();
            State state = getState();
            interrupt();
            boolean setBySelf = isInterrupted();
            boolean cleared = Thread.interrupted() && !isInterrupted();
            spinning = true;
            while (!isInterrupted()) {
                Thread.onSpinWait();
            }
            // Still interrupted: taking a shared monitor, writing and ending must not cost the node
            // its connection (an NIO write by an interrupted thread closes the channel).
            synchronized (lock) {
                sum[0]++;
            }
            seen = alive + " " + state + " " + setBySelf + " " + cleared + " " + isInterrupted();
        }
    }

    /**
     * A Thread subclass asking about itself (isAlive, getState, interrupt, isInterrupted) where
     * it runs, on a worker through the copy of its object, and seeing an interrupt from main while
     * it spins on {@code isInterrupted()}; then, still interrupted, using a shared monitor and ending.
     */
    static String threadsAskingAboutThemselves() throws InterruptedException {
        Object lock = new Object();
        long[] sum = new long[1];
        SelfAware[] threads = new SelfAware[THREADS];
        for (int i = 0; i < THREADS; i++) {
            threads[i] = new SelfAware(i, lock, sum);
            threads[i].start();
        }
        for (SelfAware t : threads) {
            while (!t.spinning && t.isAlive()) {
                Thread.onSpinWait();
            }
            t.interrupt();
        }
        for (SelfAware t : threads) {
            t.join(60_000);
            if (t.isAlive()) {
                return t.getName() + " never saw its interrupt";
            }
            if (!"true RUNNABLE true true true".equals(t.seen)) {
                return t.getName() + " saw '" + t.seen + "', not 'true RUNNABLE true true true'";
            }
        }
        return sum[0] == THREADS ? null : "counted " + sum[0] + " threads under the lock, not " + THREADS;
    }

    private static int phasesTripped;

    /**
     * A start gate and an end latch, and a barrier with an action between phases: what each thread
     * wrote before the barrier (plain elements, and the action's plain static) is seen by every
     * thread after it, whichever node each runs on; a latch waiter sees its interrupt; the latch
     * and barrier are the main thread's objects on every node (identity, hash).
     */
    static String latchesAndBarriers() throws InterruptedException {
        int phases = 20;
        int[][] cells = new int[THREADS][phases];
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(THREADS);
        CyclicBarrier barrier = new CyclicBarrier(THREADS, () -> phasesTripped++);
        String[] failures = new String[THREADS];
        Object[][] theirs = new Object[THREADS][];
        int[] hashes = new int[THREADS];
        phasesTripped = 0;
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            new Thread(() -> {
                try {
                    go.await();
                    theirs[mine] = new Object[] {go, barrier};
                    hashes[mine] = barrier.hashCode();
                    for (int p = 0; p < phases && failures[mine] == null; p++) {
                        cells[mine][p] = 1000 * p + mine;
                        barrier.await();
                        for (int other = 0; other < THREADS; other++) {
                            if (cells[other][p] != 1000 * p + other) {
                                failures[mine] = "after phase " + p + " saw " + cells[other][p] + " of thread " + other;
                            }
                        }
                        if (phasesTripped != 2 * p + 1) {
                            failures[mine] = "after phase " + p + " the barrier action had run " + phasesTripped + " times";
                        }
                        barrier.await(); // nobody writes the next phase's cell before all have read this one's
                    }
                } catch (InterruptedException | BrokenBarrierException e) {
                    failures[mine] = "the barrier threw " + e;
                } finally {
                    done.countDown();
                }
            }, "barrier-party-" + i).start();
        }
        if (go.getCount() != 1) {
            return "the start gate counted " + go.getCount();
        }
        go.countDown();
        if (!done.await(120, TimeUnit.SECONDS)) {
            return "the parties did not finish; the end latch still counts " + done.getCount();
        }
        for (int i = 0; i < THREADS; i++) {
            if (failures[i] != null) {
                return "thread " + i + ": " + failures[i];
            }
            if (theirs[i][0] != go || theirs[i][1] != barrier || hashes[i] != barrier.hashCode()) {
                return "thread " + i + " saw other objects (or hashes) for the latch and the barrier";
            }
        }
        if (phasesTripped != 2 * phases) {
            return "the barrier action ran " + phasesTripped + " times, not " + 2 * phases;
        }
        CountDownLatch never = new CountDownLatch(1);
        String[] outcome = new String[1];
        Thread waiter = new Thread(() -> {
            try {
                never.await();
                outcome[0] = "returned without an interrupt";
            } catch (InterruptedException e) {
                outcome[0] = "interrupted";
            }
        }, "latch-waiter");
        waiter.start();
        Thread.sleep(200);
        waiter.interrupt();
        waiter.join();
        return "interrupted".equals(outcome[0]) ? null : "a latch waiter " + outcome[0];
    }

    /**
     * A barrier, a hold and a mixer made of the program's synchronized methods that wait, used by
     * threads of every node: once other nodes use its monitor, a worker runs such calls at the home
     * ({@code HomeCalls}). Each round's writes are seen after the barrier, and its generation is
     * the one every party ended; values of every primitive type travel both ways; an interrupt
     * reaches a thread waiting in such a call, as an {@code InterruptedException} that clears it,
     * also where the method catches it and returns (each party's own interrupt at the end), and
     * stays pending where the method catches it and interrupts itself again; a subclass's override
     * that calls the barrier's own method runs once.
     */
    static String waitingMethodsCalledAtHome() throws InterruptedException {
        int rounds = 60;
        Rendezvous.Counting rendezvous = new Rendezvous.Counting(THREADS);
        long[] slots = new long[THREADS];
        String[] failures = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int me = i;
            threads[i] = new Thread(() -> {
                try {
                    for (int round = 1; round <= rounds; round++) {
                        slots[me] = round * 10L + me;
                        int generation = rendezvous.await();
                        for (int other = 0; other < THREADS; other++) {
                            if (slots[other] != round * 10L + other && failures[me] == null) {
                                failures[me] = "round " + round + " saw " + slots[other] + " of thread " + other;
                            }
                        }
                        if (generation != 2 * round - 1 && failures[me] == null) {
                            failures[me] = "round " + round + " ended generation " + generation;
                        }
                        rendezvous.await(); // nobody writes the next round's slot before all have read this one's
                    }
                    double mixed = rendezvous.mix((byte) -me, (short) 300, (char) ('a' + me), 0.25f, 1e-3, me % 2 == 0);
                    double expected = -me + 300 + ('a' + me) + 0.25f + 1e-3;
                    if (mixed != (me % 2 == 0 ? -expected : expected) && failures[me] == null) {
                        failures[me] = "mixed " + mixed + ", not " + expected;
                    }
                    if (rendezvous.holdQuietly() && Thread.currentThread().isInterrupted() && failures[me] == null) {
                        failures[me] = "still interrupted after the method caught its wait's InterruptedException";
                    }
                } catch (InterruptedException e) {
                    failures[me] = "interrupted";
                }
            }, "rendezvous-" + i);
            threads[i].start();
        }
        rendezvous.awaitHolding(THREADS);
        for (Thread t : threads) {
            t.interrupt();
        }
        String failure = joinAndFirstFailure(threads, failures);
        if (failure != null) {
            return failure;
        }
        if (rendezvous.calls() != 2 * rounds * THREADS) {
            return "the override counted " + rendezvous.calls() + " calls of the barrier, not " + 2 * rounds * THREADS;
        }
        String[] outcome = new String[1];
        Thread holder = new Thread(() -> {
            try {
                rendezvous.hold();
                outcome[0] = "returned without an interrupt";
            } catch (InterruptedException e) {
                outcome[0] = Thread.currentThread().isInterrupted() ? "interrupted, and still flagged" : "interrupted";
            }
        }, "rendezvous-holder");
        holder.start();
        rendezvous.awaitHolding(THREADS + 1);
        holder.interrupt();
        holder.join();
        if (!"interrupted".equals(outcome[0])) {
            return "a thread holding in a waiting method " + outcome[0];
        }
        Thread keeper = new Thread(() -> {
            rendezvous.holdKeepingInterrupt();
            outcome[0] = Thread.currentThread().isInterrupted() ? "interrupted" : "not interrupted after the method kept it pending";
        }, "rendezvous-keeper");
        keeper.start();
        rendezvous.awaitHolding(THREADS + 2);
        keeper.interrupt();
        keeper.join();
        return "interrupted".equals(outcome[0]) ? null : "a thread keeping its interrupt in a waiting method: " + outcome[0];
    }

    /**
     * Each thread keeps the exception it caught in a shared array, as programs keep their threads'
     * failures: what main reads of them (class, message, cause, where thrown, the fields of the
     * program's exception class) is what they threw, whichever node they ran on.
     */
    static String exceptionsStoredByThreads() throws InterruptedException {
        Throwable[] caught = new Throwable[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                try {
                    failFor(mine);
                } catch (RuntimeException e) {
                    caught[mine] = e;
                }
            }, "failing-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < THREADS; i++) {
            Throwable e = caught[i];
            String seen = e == null ? "nothing" : e.getClass().getSimpleName() + ": " + e.getMessage() + " / "
                    + e.getCause() + " / " + e.getStackTrace()[0].getMethodName()
                    + (e instanceof TaskFailed failed ? " / task " + failed.task + " at " + failed.stage : "");
            String want = "TaskFailed: task " + i + " failed / java.lang.ArithmeticException: / by zero / failFor / task " + i
                    + " at divide";
            if (!want.equals(seen)) {
                return "thread " + i + " kept '" + seen + "', not '" + want + "'";
            }
        }
        return null;
    }

    /** A program's exception with fields of its own that hold values: they travel with it. */
    static final class TaskFailed extends IllegalStateException {
        final int task;
        final String stage;

        TaskFailed(int task, String stage, Throwable cause) {
            super("task " + task + " failed", cause);
            this.task = task;
            this.stage = stage;
        }
    }

    private static void failFor(int task) {
        try {
            System.out.print(task / (task - task));
        } catch (ArithmeticException e) {
            throw new TaskFailed(task, "divide", e);
        }
    }

    /** An application object a program copies with {@code Object.clone()}, which copies dist's fields too. */
    static final class Cell implements Cloneable {
        int value;

        Cell(int value) {
            this.value = value;
        }

        Cell copy() {
            try {
                return (Cell) super.clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /**
     * A clone of a shared object is a new, unshared object with its original's values: its writes
     * are its own, its monitor is its own (threads holding their own clones' monitors all get in at
     * once), and, published, it arrives elsewhere as itself, not as its original; the same for a
     * clone the home makes of a master. {@code clone} copies the field in which dist keeps a shared
     * object's bookkeeping, so anything that took that field for the object's identity would fail here.
     */
    static String clonesOfSharedObjects() throws InterruptedException {
        Cell origin = new Cell(7);
        Cell[] clones = new Cell[THREADS];
        Object counting = new Object();
        int[] arrived = new int[1];
        String[] failures = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                Cell clone = origin.copy();
                clone.value = 100 + mine;
                synchronized (clone) {
                    clone.value++;
                    synchronized (counting) {
                        arrived[0]++;
                    }
                    // Every thread holds its own clone's monitor here until all have arrived.
                    long deadline = System.nanoTime() + 20_000_000_000L;
                    while (true) {
                        synchronized (counting) {
                            if (arrived[0] == THREADS) {
                                break;
                            }
                        }
                        if (System.nanoTime() > deadline) {
                            failures[mine] = "thread " + mine + " waited 20 s for the others to hold their own clones' monitors";
                            break;
                        }
                        Thread.onSpinWait();
                    }
                }
                clones[mine] = clone;
            }, "cloner-" + i);
            threads[i].start();
        }
        String failure = joinAndFirstFailure(threads, failures);
        if (failure != null) {
            return failure;
        }
        for (int i = 0; i < THREADS; i++) {
            if (clones[i] == origin || clones[i].value != 101 + i) {
                return "clone " + i + " arrived as " + (clones[i] == origin ? "its original" : "value " + clones[i].value);
            }
        }
        if (origin.value != 7) {
            return "a clone's writes reached its original: " + origin.value;
        }
        Cell homeClone = origin.copy();
        homeClone.value = 55;
        Cell[] seenClones = {homeClone};
        for (int i = 0; i < THREADS; i++) {
            int mine = i;
            threads[i] = new Thread(() -> {
                Cell seen = seenClones[0];
                if (seen == origin || seen.value != 55 || origin.value != 7 || clones[mine].value != 101 + mine) {
                    failures[mine] = "thread " + mine + " saw the home's clone " + (seen == origin ? "as its original" : "with " + seen.value)
                            + ", the original with " + origin.value + ", its clone with " + clones[mine].value;
                }
            }, "clone-reader-" + i);
            threads[i].start();
        }
        return joinAndFirstFailure(threads, failures);
    }
}
