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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.Type;

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
    /**
     * Per capturing class, the factories of its lambdas by what they are: the metafactory spins a
     * class at each call, which the JVM does once per call site, and so must this.
     */
    private static final ClassValue<Map<String, MethodHandle>> FACTORIES = new ClassValue<>() {
        @Override
        protected Map<String, MethodHandle> computeValue(Class<?> capturing) {
            return new ConcurrentHashMap<>();
        }
    };
    /** Per lambda class, its {@code writeReplace}; null when it has none or its capturing class cannot make it again. */
    private static final ClassValue<Method> WRITE_REPLACE = new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> lambda) {
            try {
                lambda.getNestHost().getDeclaredMethod(LOOKUP_METHOD);
                Method writeReplace = lambda.getDeclaredMethod("writeReplace");
                writeReplace.setAccessible(true);
                return writeReplace;
            } catch (NoSuchMethodException | RuntimeException e) {
                return null;
            }
        }
    };

    private Lambdas() {}

    /**
     * Makes one serializable lambda the way {@link #read} does: the metafactory's first
     * serializable lambda in a JVM costs it 50-100 ms, which a thread placed on a fresh worker
     * would otherwise wait for.
     */
    static void prepare() {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MethodType run = MethodType.methodType(void.class);
            CallSite site = LambdaMetafactory.altMetafactory(lookup, "run", MethodType.methodType(Runnable.class), run,
                    lookup.findStatic(Lambdas.class, "prepared", run), run, FLAG_SERIALIZABLE);
            ((Runnable) site.getTarget().invokeExact()).run();
        } catch (Throwable e) {
            // only a saving of time: the first lambda made again here pays it instead
        }
    }

    private static void prepared() {
        // the body of the lambda prepare() makes
    }

    /** Whether {@code value} is a lambda or method reference (an instance of a hidden class). */
    static boolean isLambda(Object value) {
        return value.getClass().isHidden();
    }

    /** What {@code lambda} captured. */
    static List<Object> captured(Object lambda) {
        SerializedLambda form = serializedForm(lambda);
        List<Object> values = new ArrayList<>(form.getCapturedArgCount());
        for (int i = 0; i < form.getCapturedArgCount(); i++) {
            values.add(form.getCapturedArg(i));
        }
        return values;
    }

    /**
     * Per captured value of {@code form}, whether the lambda captured a reference (its
     * implementation's parameter is not a primitive, or it is the receiver), so that a box there
     * is the program's object; a captured {@code int} arrives boxed by the serialized form.
     */
    static boolean[] capturedReferences(SerializedLambda form) {
        boolean[] references = new boolean[form.getCapturedArgCount()];
        int kind = form.getImplMethodKind();
        int receiver = kind == MethodHandleInfo.REF_invokeStatic || kind == MethodHandleInfo.REF_newInvokeSpecial ? 0 : 1;
        Type[] parameters = Type.getArgumentTypes(form.getImplMethodSignature());
        for (int i = 0; i < references.length; i++) {
            // a receiver, or a parameter the captured value is passed as
            references[i] = i < receiver || i - receiver < parameters.length && holdsReference(parameters[i - receiver]);
        }
        return references;
    }

    private static boolean holdsReference(Type type) {
        return type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY;
    }

    /** [capturing class][interface][method][its type][instantiated type][implementation: class, name, type, kind][captured count]; then the caller writes the captured values. */
    static SerializedLambda write(WireBuffer out, Object lambda) {
        SerializedLambda form = serializedForm(lambda);
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

    /** What {@link #write} wrote before the captured values: a lambda of the program, as the metafactory is told of it. */
    private record Description(String capturing, String functionalInterface, String methodName, String methodType,
                               String instantiatedType, String implClass, String implName, String implType, int implKind,
                               int captured) {
        static Description read(WireReader reader) {
            return new Description(reader.string(), reader.string(), reader.string(), reader.string(), reader.string(),
                    reader.string(), reader.string(), reader.string(), Byte.toUnsignedInt(reader.body().get()),
                    reader.body().getInt());
        }

        /**
         * This lambda's key among its capturing class's factories. Not the record's own
         * {@code toString}: that one's bootstrap spun method handles for some 75 ms at a worker's
         * first placed lambda, time the thread waited.
         */
        String key() {
            return String.join(" ", capturing, functionalInterface, methodName, methodType, instantiatedType, implClass,
                    implName, implType, Integer.toString(implKind), Integer.toString(captured));
        }
    }

    /** The lambda {@link #write} described, made again with the captured values that follow. */
    static Object read(WireReader reader) {
        Description lambda = Description.read(reader);
        WireReader.bounded(reader.body(), lambda.captured());
        List<Object> captured = new ArrayList<>(lambda.captured());
        for (int i = 0; i < lambda.captured(); i++) {
            captured.add(reader.value());
        }
        try {
            Class<?> capturingClass = reader.load(lambda.capturing().replace('/', '.'));
            Map<String, MethodHandle> factories = FACTORIES.get(capturingClass);
            String key = lambda.key();
            MethodHandle factory = factories.get(key);
            if (factory == null) {
                factory = factory(capturingClass, lambda, reader);
                factories.putIfAbsent(key, factory);
            }
            return factory.invokeWithArguments(captured);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("the lambda " + lambda.implClass() + "." + lambda.implName() + " of "
                    + lambda.capturing() + " cannot be made again here: " + e, e);
        }
    }

    /** What the JVM's call site of the lambda would hold: a handle from the captured values to a new lambda. */
    private static MethodHandle factory(Class<?> capturingClass, Description lambda, WireReader reader) throws Throwable {
        ClassLoader loader = reader.loader();
        MethodHandle implementation = implementation(reader.load(lambda.implClass().replace('/', '.')), lambda.implName(),
                lambda.implType(), lambda.implKind(), loader);
        if (lambda.captured() > implementation.type().parameterCount()) {
            throw new IllegalArgumentException("a lambda captures more values than its implementation takes");
        }
        MethodType factoryType = MethodType.methodType(reader.load(lambda.functionalInterface().replace('/', '.')),
                implementation.type().parameterList().subList(0, lambda.captured()));
        CallSite site = LambdaMetafactory.altMetafactory(lookupOf(capturingClass), lambda.methodName(), factoryType,
                MethodType.fromMethodDescriptorString(lambda.methodType(), loader), implementation,
                MethodType.fromMethodDescriptorString(lambda.instantiatedType(), loader), FLAG_SERIALIZABLE);
        return site.getTarget();
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

    /** What the metafactory was told of {@code lambda}: its implementation, what it captured. */
    static SerializedLambda serializedForm(Object lambda) {
        Method writeReplace = WRITE_REPLACE.get(lambda.getClass());
        if (writeReplace == null) {
            throw new UnsharableException(lambda.getClass(), "this lambda was not made by a class dist rewrote, so it cannot"
                    + " be made again on another node");
        }
        try {
            return (SerializedLambda) writeReplace.invoke(lambda);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsharableException(lambda.getClass(), "dist cannot read what this lambda captured (" + e + ")");
        }
    }
}
