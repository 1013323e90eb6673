package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

class SerializableLambdaRewriterTest {
    /** Input: a capturing Runnable lambda, a bound method reference, a lambda of another type, an intersection cast. */
    public static final class Subject {
        public int hits;

        public void hit() {
            hits++;
        }

        public static String run() throws Exception {
            int[] cell = new int[1];
            long step = 5;
            Runnable lambda = () -> cell[0] += step;
            Subject target = new Subject();
            Runnable reference = target::hit;
            IntSupplier other = () -> cell[0];
            Comparator<String> marked = (Comparator<String> & Cloneable) (a, b) -> a.length() - b.length();
            lambda.run();
            reference.run();
            return describe(lambda) + "; " + describe(reference) + "; " + describe(other) + "; cell " + cell[0]
                    + ", hits " + target.hits + ", other says " + other.getAsInt() + ", marked " + marked.compare("ab", "c")
                    + " cloneable " + (marked instanceof Cloneable) + " serializable " + (marked instanceof Serializable);
        }

        private static String describe(Object lambda) throws Exception {
            Method writeReplace = lambda.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            SerializedLambda form = (SerializedLambda) writeReplace.invoke(lambda);
            return form.getFunctionalInterfaceClass().substring(form.getFunctionalInterfaceClass().lastIndexOf('/') + 1)
                    + " " + form.getImplMethodName() + "/" + form.getImplMethodKind() + " captured " + form.getCapturedArgCount();
        }
    }

    @Test
    void everyLambdaSaysWhatItRunsAndWhatItCapturedAndBehavesAsBefore() throws Throwable {
        Rewritten subject = new Rewritten(Subject.class);
        String described = (String) subject.call("run");
        // invokeStatic = 6, invokeVirtual = 5; the lambda captures the array and the long, the reference its target.
        assertEquals(true, described.matches("Runnable lambda\\$run\\$\\d+/6 captured 2; Runnable hit/5 captured 1;"
                + " IntSupplier lambda\\$run\\$\\d+/6 captured 1; cell 5, hits 1, other says 5, marked 1 cloneable true"
                + " serializable true"), described);
        // three metafactory lambdas, and the intersection cast's altMetafactory given the flag
        assertEquals(4, subject.counts(Subject.class).get(Kind.SERIALIZABLE_LAMBDA));
    }
}
