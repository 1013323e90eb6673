package itapp.jmm;

import java.util.ArrayList;
import java.util.List;

/**
 * The Java memory model cases a distributed run must keep, as an ordinary program: each case starts
 * threads (at least as many as the cluster has nodes, so placement can spread them) and prints
 * "{case} ok" or "{case} FAIL: why". Every case is data-race-free except the spins, which wait on
 * volatile reads as the Java Grande kernels do.
 */
public final class Conformance {
    private static final List<String> FAILURES = new ArrayList<>();

    private Conformance() {}

    public static void main(String[] args) throws Exception {
        check("synchronized-visibility", Cases.synchronizedVisibility());
        check("volatile-visibility", Cases.volatileVisibility());
        check("start-join-visibility", Cases.startJoinVisibility());
        check("volatile-flag-spin", Cases.volatileFlagSpin());
        check("volatile-array-spin", Cases.volatileArraySpin());
        check("volatile-static-spin", Cases.volatileStaticSpin());
        check("dekker", Cases.dekker());
        check("iriw", Cases.iriw());
        check("iriw-split", Cases.iriwSplit());
        check("notify-all-several-waiters", Cases.notifyAllWakesEveryWaiter());
        check("notify-wakes-one", Cases.notifyWakesOne());
        check("wait-notify-need-the-monitor", Cases.waitAndNotifyNeedTheMonitor());
        check("timed-wait", Cases.timedWait());
        check("interrupt-waiting", Cases.interruptWaiting());
        check("interrupt-sleeping", Cases.interruptSleeping());
        check("interrupts-publish-writes", Cases.interruptsPublishWrites());
        check("reentrant-synchronized", Cases.reentrantSynchronized());
        check("own-monitors-made-by-the-threads", Cases.ownMonitorsMadeByTheThreads());
        check("published-while-locked", Cases.publishedWhileLocked());
        check("requests-waited-on-by-their-makers", Cases.requestsWaitedOnByTheirMakers());
        check("lock-hand-over-chain", Cases.lockHandOverChain());
        check("static-synchronized", Cases.staticSynchronized());
        check("class-initializer-once", Cases.classInitializerOnce());
        check("identity-by-two-paths", Cases.identityByTwoPaths());
        check("identity-hash", Cases.identityHash());
        check("string-identity", Cases.stringIdentity());
        check("one-chunk-many-writers", Cases.oneChunkManyWriters());
        check("one-chunk-written-by-two-nodes", Cases.oneChunkWrittenByTwoNodes());
        check("large-array-few-elements", Cases.largeArrayFewElements());
        check("arrays-written-by-jdk-code", Cases.arraysWrittenByJdkCode());
        check("thread-names", Cases.threadNames());
        check("lambdas-reached-by-tasks", Cases.lambdasReachedByTasks());
        check("plain-object-locks", Cases.plainObjectLocks());
        check("thread-locals", Cases.threadLocals());
        check("hashes-under-jdk-superclasses", Cases.hashesUnderJdkSuperclasses());
        check("threads-asking-about-themselves", Cases.threadsAskingAboutThemselves());
        check("peers-asked-of-themselves", Cases.peersAskedOfThemselves());
        check("peers-joined-and-interrupted", Cases.peersJoinedAndInterrupted());
        check("thread-objects-as-mailboxes", Cases.threadObjectsAsMailboxes());
        check("latches-and-barriers", Cases.latchesAndBarriers());
        check("waiting-methods-called-at-home", Cases.waitingMethodsCalledAtHome());
        check("exceptions-stored-by-threads", Cases.exceptionsStoredByThreads());
        check("clones-of-shared-objects", Cases.clonesOfSharedObjects());
        check("big-numbers-by-value", Cases.bigNumbersByValue());
        check("records-and-fieldless-jdk-superclasses", Cases.recordsAndFieldlessJdkSuperclasses());
        check("immutable-collections-by-value", Cases.immutableCollectionsByValue());
        check("waits-on-thread-objects", Cases.waitsOnThreadObjects());
        check("stack-sizes-asked-for", Cases.stackSizesAskedFor());
        check("thread-groups", Cases.threadGroups());
        check("peterson-locks", Cases.petersonLocks());
        check("statics-named-through-subclasses", Cases.staticsNamedThroughSubclasses());
        check("statics-named-across-packages", Cases.staticsNamedAcrossPackages());
        check("strings-with-unpaired-surrogates", Cases.stringsWithUnpairedSurrogates());
        check("jdk-enum-constants-by-value", Cases.jdkEnumConstantsByValue());
        check("identity-of-values-that-travel-by-value", Cases.identityOfValuesThatTravelByValue());
        System.exit(FAILURES.isEmpty() ? 0 : 1);
    }

    private static void check(String name, String failure) {
        if (failure == null) {
            System.out.println(name + " ok");
        } else {
            FAILURES.add(name);
            System.out.println(name + " FAIL: " + failure);
        }
    }
}
