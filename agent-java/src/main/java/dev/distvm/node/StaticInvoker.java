package dev.distvm.node;

import dev.distvm.node.proto.InvokeResult;
import dev.distvm.node.proto.InvokeStatic;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.report.ApplicationThreads;
import dev.distvm.transport.Endpoint;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * Runs a public static method of an application class on this node for another node: the class is
 * loaded through this node's application class loader (on a worker, from the home). Arguments and
 * result travel as strings, so nothing is deserialized into arbitrary classes.
 */
public final class StaticInvoker {
    private final ClassLoader applicationLoader;

    private StaticInvoker(ClassLoader applicationLoader) {
        this.applicationLoader = applicationLoader;
    }

    static void serve(Endpoint endpoint, ClassLoader applicationLoader, ExecutorService executor) {
        StaticInvoker invoker = new StaticInvoker(applicationLoader);
        endpoint.register(NodeMessageType.INVOKE_STATIC_VALUE, message -> {
            InvokeStatic request = message.decode(InvokeStatic.parser());
            return CompletableFuture.supplyAsync(() -> invoker.invoke(request), executor);
        });
    }

    /** Runs the request in the calling thread, with {@code applicationLoader} for the class. */
    public static InvokeResult invokeHere(InvokeStatic request, ClassLoader applicationLoader) {
        return new StaticInvoker(applicationLoader).invoke(request);
    }

    private InvokeResult invoke(InvokeStatic request) {
        ApplicationThreads.invocation(Thread.currentThread());
        try {
            Class<?> owner = Class.forName(request.getClassName(), true, applicationLoader);
            Method method = find(owner, request.getMethod(), request.getArgumentsCount());
            Object value = method.invoke(null, request.getArgumentsList().toArray());
            return InvokeResult.newBuilder().setOk(true).setValue(String.valueOf(value)).build();
        } catch (InvocationTargetException e) {
            return failure(e.getCause());
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return failure(e);
        }
    }

    private static Method find(Class<?> owner, String name, int arity) throws NoSuchMethodException {
        Class<?>[] strings = new Class<?>[arity];
        Arrays.fill(strings, String.class);
        Method method = owner.getMethod(name, strings);
        if (!Modifier.isStatic(method.getModifiers())) {
            throw new NoSuchMethodException(owner.getName() + "." + name + " is not static");
        }
        return method;
    }

    private static InvokeResult failure(Throwable thrown) {
        return InvokeResult.newBuilder()
                .setOk(false)
                .setExceptionClass(thrown.getClass().getName())
                .setMessage(String.valueOf(thrown.getMessage()))
                .build();
    }
}
