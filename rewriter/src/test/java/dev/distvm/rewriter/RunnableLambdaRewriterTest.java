package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

class RunnableLambdaRewriterTest {
    /** Input: a capturing Runnable lambda, a bound method reference, and a lambda of another type. */
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
            lambda.run();
            reference.run();
            return describe(lambda) + "; " + describe(reference) + "; cell " + cell[0] + ", hits " + target.hits
                    + ", other serializable " + (other instanceof java.io.Serializable) + " -> " + other.getAsInt();
        }

        private static String describe(Object lambda) throws Exception {
            Method writeReplace = lambda.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            SerializedLambda form = (SerializedLambda) writeReplace.invoke(lambda);
            return form.getImplMethodName() + "/" + form.getImplMethodKind() + " captured " + form.getCapturedArgCount();
        }
    }

    @Test
    void runnableLambdasSayWhatTheyRunAndCaptureOtherLambdasStayAsTheyWere() throws Throwable {
        Rewritten subject = new Rewritten(Subject.class);
        String described = (String) subject.call("run");
        // invokeStatic = 6, invokeVirtual = 5; the lambda captures the array and the long, the reference its target.
        assertEquals(true, described.matches("lambda\\$run\\$\\d+/6 captured 2; hit/5 captured 1; cell 5, hits 1,"
                + " other serializable false -> 5"), described);
        assertEquals(2, subject.counts(Subject.class).get(Kind.RUNNABLE_LAMBDA));
    }
}
