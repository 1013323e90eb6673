package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Lambdas and method references travel by value: by what they are (the functional interface, the
 * implementation method, the captured values; the rewriter makes every lambda of the program
 * serializable so that it can say so) and are made again where they arrive, with the same
 * metafactory the JVM used, so they behave as the original did. What they captured travels as
 * any value does (shared objects by id). A lambda has no state of its own to keep coherent (its
 * captured values are final); what a receiver gets is an equal lambda, not the same object, so
 * {@code ==} between a lambda and its copy from another node is false.
 */
final class Lambdas {
    private static final int FLAG_SERIALIZABLE = 1;
    /** Added by the rewriter to every class that makes lambdas (its SerializableLambdaRewriter). */
    private static final String LOOKUP_METHOD = "$dist$lookup";

    private Lambdas() {}

    /** Whether {@code value} is a lambda or method reference (an instance of a hidden class). */
    static boolean isLambda(Object value) {
        return value.getClass().isHidden();
    }

    /** [capturing class][interface][method][its type][instantiated type][implementation: class, name, type, kind][captured count]; then the caller writes the captured values. */
    static SerializedLambda write(WireBuffer out, Object lambda) {
        SerializedLambda form = serializedForm(lambda);
        try {
            lambda.getClass().getNestHost().getDeclaredMethod(LOOKUP_METHOD);
        } catch (NoSuchMethodException e) {
            throw new UnsharableException(lambda.getClass(), "its capturing class was not rewritten by dist, so it cannot be"
                    + " made again on another node");
        }
        out.appendString(form.getCapturingClass());
        out.appendString(form.getFunctionalInterfaceClass());
        out.appendString(form.getFunctionalInterfaceMethodName());
        out.appendString(form.getFunctionalInterfaceMethodSignature());
        out.appendString(form.getInstantiatedMethodType());
        out.appendString(form.getImplClass());
        out.appendString(form.getImplMethodName());
        out.appendString(form.getImplMethodSignature());
        out.appendByte((byte) form.getImplMethodKind());
        out.appendInt(form.getCapturedArgCount());
        return form;
    }

    /** The lambda {@link #write} described, made again with {@code captured} read by the caller. */
    static Object read(WireReader reader) {
        String capturing = reader.string();
        String functionalInterface = reader.string();
        String methodName = reader.string();
        String methodType = reader.string();
        String instantiatedType = reader.string();
        String implClass = reader.string();
        String implName = reader.string();
        String implType = reader.string();
        int implKind = Byte.toUnsignedInt(reader.body().get());
        int count = reader.body().getInt();
        WireReader.bounded(reader.body(), count);
        List<Object> captured = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            captured.add(reader.value());
        }
        ClassLoader loader = reader.loader();
        try {
            MethodHandles.Lookup lookup = lookupOf(reader.load(capturing.replace('/', '.')));
            MethodHandle implementation = implementation(reader.load(implClass.replace('/', '.')), implName, implType,
                    implKind, loader);
            if (count > implementation.type().parameterCount()) {
                throw new IllegalArgumentException("a lambda captures more values than its implementation takes");
            }
            MethodType factoryType = MethodType.methodType(reader.load(functionalInterface.replace('/', '.')),
                    implementation.type().parameterList().subList(0, count));
            CallSite site = LambdaMetafactory.altMetafactory(lookup, methodName, factoryType,
                    MethodType.fromMethodDescriptorString(methodType, loader), implementation,
                    MethodType.fromMethodDescriptorString(instantiatedType, loader), FLAG_SERIALIZABLE);
            return site.getTarget().invokeWithArguments(captured);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("the lambda " + implClass + "." + implName + " of " + capturing
                    + " cannot be made again here: " + e, e);
        }
    }

    /** The capturing class's own full-privilege lookup, which the metafactory requires. */
    private static MethodHandles.Lookup lookupOf(Class<?> capturing) throws ReflectiveOperationException {
        Method lookup;
        try {
            lookup = capturing.getDeclaredMethod(LOOKUP_METHOD);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("object-space message: " + capturing.getName() + " makes no lambdas");
        }
        lookup.setAccessible(true);
        return (MethodHandles.Lookup) lookup.invoke(null);
    }

    private static MethodHandle implementation(Class<?> owner, String name, String signature, int kind,
                                               ClassLoader loader) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
        MethodType type = MethodType.fromMethodDescriptorString(signature, loader);
        return switch (kind) {
            case MethodHandleInfo.REF_invokeStatic -> lookup.findStatic(owner, name, type);
            case MethodHandleInfo.REF_invokeVirtual, MethodHandleInfo.REF_invokeInterface -> lookup.findVirtual(owner, name, type);
            case MethodHandleInfo.REF_invokeSpecial -> lookup.findSpecial(owner, name, type, owner);
            case MethodHandleInfo.REF_newInvokeSpecial -> lookup.findConstructor(owner, type);
            default -> throw new IllegalArgumentException("lambda implementation kind " + kind);
        };
    }

    private static SerializedLambda serializedForm(Object lambda) {
        try {
            Method writeReplace = lambda.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            return (SerializedLambda) writeReplace.invoke(lambda);
        } catch (NoSuchMethodException e) {
            throw new UnsharableException(lambda.getClass(), "this lambda was not made serializable by dist's rewriter");
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsharableException(lambda.getClass(), "dist cannot read what this lambda captured (" + e + ")");
        }
    }
}
