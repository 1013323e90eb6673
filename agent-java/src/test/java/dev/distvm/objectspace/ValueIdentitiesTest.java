package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ValueIdentitiesTest {
    @BeforeAll
    static void numberAsNodeSeven() {
        ValueIdentities.numberAs(() -> 7);
    }

    @Test
    void aValueKeepsItsIdAndAnArrivalWithAKnownIdIsTheObjectHeldHere() {
        String sentinel = new String("end");
        long id = ValueIdentities.idOf(sentinel);
        assertEquals(7, Ids.node(id));
        assertEquals(id, ValueIdentities.idOf(sentinel));
        assertNotEquals(id, ValueIdentities.idOf(new String("end")));
        assertSame(sentinel, ValueIdentities.arrived(id, new String("end")));
    }

    @Test
    void aValueArrivingWithANewIdIsKeptUnderItAndGoesOutWithIt() {
        long theirs = Ids.of(3, 99);
        String arrived = new String("theirs");
        assertSame(arrived, ValueIdentities.arrived(theirs, arrived));
        assertSame(arrived, ValueIdentities.arrived(theirs, new String("theirs")));
        assertEquals(theirs, ValueIdentities.idOf(arrived));
    }

    @Test
    void boxesOutsideTheJdksCachesAreTheOnesThatNeedAnId() {
        assertFalse(ValueIdentities.isUncachedBox(Integer.valueOf(100)));
        assertTrue(ValueIdentities.isUncachedBox(Integer.valueOf(100_000)));
        assertFalse(ValueIdentities.isUncachedBox(Long.valueOf(-5)));
        assertTrue(ValueIdentities.isUncachedBox(Double.valueOf(0)));
        assertFalse(ValueIdentities.isUncachedBox(Boolean.TRUE));
        assertFalse(ValueIdentities.isUncachedBox("not a box"));
        Integer pill = 100_000;
        assertFalse(ValueIdentities.hasId(pill));
        ValueIdentities.idOf(pill);
        assertTrue(ValueIdentities.hasId(pill));
    }

    @Test
    void aLambdasCapturedReferencesAreToldFromItsCapturedPrimitives() throws ReflectiveOperationException {
        Integer boxed = 100_000;
        int primitive = 7;
        long wide = 8;
        Object[] array = {};
        java.util.function.IntSupplier lambda = (java.util.function.IntSupplier & java.io.Serializable)
                () -> boxed + primitive + (int) wide + array.length;
        java.lang.reflect.Method writeReplace = lambda.getClass().getDeclaredMethod("writeReplace"); // a serializable lambda's
        writeReplace.setAccessible(true);
        java.lang.invoke.SerializedLambda form = (java.lang.invoke.SerializedLambda) writeReplace.invoke(lambda);
        boolean[] references = Lambdas.capturedReferences(form);
        assertEquals(4, references.length);
        for (int i = 0; i < references.length; i++) {
            Object captured = form.getCapturedArg(i);
            assertEquals(captured == boxed || captured == array, references[i], "captured " + captured);
        }
    }

    @Test
    void theBigNumbersValueOfCachesAreCanonicalAndArriveAsThemselves() {
        assertTrue(ValueIdentities.isCanonical(BigInteger.ONE));
        assertTrue(ValueIdentities.isCanonical(BigDecimal.TEN));
        assertFalse(ValueIdentities.isCanonical(new BigInteger("1")));
        assertFalse(ValueIdentities.isCanonical(BigInteger.TWO.pow(70)));
        assertFalse(ValueIdentities.isCanonical(new BigDecimal("1.5")));
        assertSame(BigInteger.ONE, ValueIdentities.canonical(new BigInteger("1")));
        assertSame(BigDecimal.TEN, ValueIdentities.canonical(new BigDecimal("10")));
        BigInteger large = BigInteger.TWO.pow(70);
        assertSame(large, ValueIdentities.canonical(large));
    }
}
