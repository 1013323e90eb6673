package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.WireBuffer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The home's side of {@link ForwardedCalls}: runs a worker's call on the master, on a thread of
 * its own (an {@code await} blocks for as long as the other parties take, which must hold up
 * neither the transport's reader nor other calls), and answers with the result or what it threw,
 * and a refresh taken after the call returned. The worker's release sent before the call was
 * applied on the connection's reader thread before the call was read, so the master's other
 * users see it once the call has happened. An interrupt names the call: it interrupts the thread
 * that runs it, or, if that has not started yet, the thread that will.
 */
final class ForwardedCallsAtHome {
    private final HomeSpace space;
    private final Delegates delegates;
    private final ExecutorService callers = Executors.newCachedThreadPool(DaemonThreads.named("dist-forwarded-call"));
    /**
     * The calls read and not ended, with the thread that runs each once it started. A call is
     * entered here on the reader thread as it is read, and its interrupt comes after it on the same
     * connection: an interrupt that finds no call came after the call ended, and is dropped.
     */
    private final Map<Call, Running> calls = new HashMap<>();

    private static final class Running {
        Thread thread;
        boolean interrupted;
    }

    /** A worker's call, as the worker numbered it. */
    private record Call(int node, long number) {}

    ForwardedCallsAtHome(HomeSpace space, Delegates delegates) {
        this.space = space;
        this.delegates = delegates;
    }

    /** A request is a call; a one-way message interrupts one. */
    CompletableFuture<WireBuffer> handle(Inbound message) {
        if (message.kind() != dev.distvm.transport.proto.Kind.REQUEST) {
            interrupt(new Call(message.sender(), SpaceMessages.longOf(SpaceMessages.body(message))));
            return CompletableFuture.completedFuture(null);
        }
        WireReader reader = space.read(message.sender(), SpaceMessages.body(message));
        Call call = new Call(message.sender(), reader.body().getLong());
        Object master = reader.ref();
        String key = reader.string();
        Method method = ForwardedCalls.method(master.getClass(), key);
        Object target = ForwardedCalls.target(master);
        boolean takesMonitor = HomeCalls.isHomeCall(key);
        Object[] arguments = ForwardedCalls.readArguments(reader.body(), method);
        synchronized (this) {
            calls.put(call, new Running());
        }
        return CompletableFuture.supplyAsync(() -> {
            if (takesMonitor) {
                // A program's method that waits (HomeCalls) takes the master's monitor, and a thread
                // of the home cannot ask a node for its lease as a worker's enter does: ask here.
                delegates.wanted(master);
            }
            return answer(call, run(call, target, method, arguments, takesMonitor), method);
        }, callers);
    }

    private ForwardedCalls.Outcome run(Call call, Object target, Method method, Object[] arguments, boolean takesMonitor) {
        started(call);
        boolean[] waited = HomeCalls.noteWaits();
        Object result = null;
        Throwable thrown = null;
        try {
            result = invoke(target, method, arguments, takesMonitor);
        } catch (InvocationTargetException e) {
            thrown = e.getCause();
        } catch (IllegalAccessException e) {
            ended(call);
            throw new IllegalStateException("forwarded call of " + method + ": " + e, e);
        } finally {
            HomeCalls.stopNotingWaits();
        }
        return new ForwardedCalls.Outcome(result, thrown, (waited[0] ? ForwardedCalls.Outcome.WAITED : 0) | ended(call));
    }

    /** A program's method is its body (see {@link HomeCalls#method}), called holding the monitor as its wrapper would. */
    private static Object invoke(Object target, Method method, Object[] arguments, boolean takesMonitor)
            throws InvocationTargetException, IllegalAccessException {
        if (!takesMonitor) {
            return method.invoke(target, arguments);
        }
        synchronized (target) {
            return method.invoke(target, arguments);
        }
    }

    private WireBuffer answer(Call call, ForwardedCalls.Outcome outcome, Method method) {
        return space.write(call.node(), w -> {
            outcome.write(w.body(), method, space.loader());
            space.writeRefresh(call.node(), w);
        });
    }

    private synchronized void started(Call call) {
        Running running = calls.get(call);
        running.thread = Thread.currentThread();
        if (running.interrupted) {
            running.thread.interrupt();
        }
    }

    /**
     * The call returned: an interrupt that comes now finds no call. Returns the outcome's flags of
     * an interrupt: whether one reached the call, and whether the thread is still interrupted (a
     * program's method may catch a wait's {@code InterruptedException}, which clears it, and go on,
     * or interrupt itself again).
     */
    private synchronized int ended(Call call) {
        Running running = calls.remove(call);
        boolean pending = Thread.interrupted(); // cleared: it must not reach the pool's next call
        return (running.interrupted ? ForwardedCalls.Outcome.INTERRUPT_REACHED : 0)
                | (pending ? ForwardedCalls.Outcome.INTERRUPT_PENDING : 0);
    }

    private synchronized void interrupt(Call call) {
        Running running = calls.get(call);
        if (running != null) {
            running.interrupted = true;
            if (running.thread != null) {
                running.thread.interrupt();
            }
        }
    }
}
