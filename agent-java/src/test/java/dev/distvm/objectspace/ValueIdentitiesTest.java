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
