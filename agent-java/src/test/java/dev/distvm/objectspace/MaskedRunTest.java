package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class MaskedRunTest {
    private static final int LENGTH = 600;

    /** Changes where {@code changed} says, in arrays of every primitive type, the element at i first i % 7. */
    private static List<Object[]> agreedAndCurrent(IntPredicate changed) {
        int[] ai = new int[LENGTH], ci = new int[LENGTH];
        long[] al = new long[LENGTH], cl = new long[LENGTH];
        double[] ad = new double[LENGTH], cd = new double[LENGTH];
        byte[] ab = new byte[LENGTH], cb = new byte[LENGTH];
        float[] af = new float[LENGTH], cf = new float[LENGTH];
        char[] ac = new char[LENGTH], cc = new char[LENGTH];
        short[] as = new short[LENGTH], cs = new short[LENGTH];
        boolean[] az = new boolean[LENGTH], cz = new boolean[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            int was = i % 7;
            int now = changed.test(i) ? was + 100 : was;
            ai[i] = was;
            ci[i] = now;
            al[i] = was;
            cl[i] = now;
            ad[i] = was;
            cd[i] = changed.test(i) && was == 0 ? -0.0 : now; // -0.0 differs from 0.0 by its bits
            ab[i] = (byte) was;
            cb[i] = (byte) now;
            af[i] = was;
            cf[i] = now;
            ac[i] = (char) was;
            cc[i] = (char) now;
            as[i] = (short) was;
            cs[i] = (short) now;
            az[i] = was % 2 == 0;
            cz[i] = changed.test(i) != (was % 2 == 0);
        }
        return List.of(new Object[] {ai, ci}, new Object[] {al, cl}, new Object[] {ad, cd}, new Object[] {ab, cb},
                new Object[] {af, cf}, new Object[] {ac, cc}, new Object[] {as, cs}, new Object[] {az, cz});
    }

    @Test
    void aDiffCarriesExactlyTheChangedElementsAndAppliesOnlyThem() {
        List<IntPredicate> patterns = List.of(i -> true, i -> i % 2 == 0, i -> i % 64 == 63, i -> i >= 60 && i < 70,
                i -> i == 0 || i == LENGTH - 1, i -> (i / 3) % 2 == 1);
        List<Object[]> writtenEverywhere = agreedAndCurrent(i -> true);
        for (IntPredicate changed : patterns) {
            List<Object[]> pairs = agreedAndCurrent(changed);
            for (int type = 0; type < pairs.size(); type++) {
                Object agreed = pairs.get(type)[0];
                Object current = pairs.get(type)[1];
                String name = current.getClass().getSimpleName();
                for (int from = 0; from < LENGTH; from += MaskedRun.WINDOW) {
                    int window = Math.min(MaskedRun.WINDOW, LENGTH - from);
                    MaskedRun run = MaskedRun.diff(current, agreed, from, window);
                    int expected = 0;
                    for (int i = from; i < from + window; i++) {
                        expected += PrimitiveArrays.rangeEquals(current, agreed, i, i + 1) ? 0 : 1;
                    }
                    if (expected == 0) {
                        assertNull(run);
                        continue;
                    }
                    assertEquals(expected, java.lang.reflect.Array.getLength(run.values), name);
                    // Onto the agreed values: the window becomes what was current (nothing is missed).
                    Object onAgreed = PrimitiveArrays.copyOfRange(agreed, 0, LENGTH);
                    run.applyTo(onAgreed, from);
                    assertEquals(-1, PrimitiveArrays.mismatch(onAgreed, current, from, from + window), name);
                    // Onto an array another node wrote everywhere: only the changed elements move.
                    Object other = PrimitiveArrays.copyOfRange(writtenEverywhere.get(type)[1], 0, LENGTH);
                    Object before = PrimitiveArrays.copyOfRange(other, 0, LENGTH);
                    run.applyTo(other, from);
                    for (int i = 0; i < LENGTH; i++) {
                        boolean inRun = i >= from && i < from + window && !PrimitiveArrays.rangeEquals(current, agreed, i, i + 1);
                        assertEquals(-1, PrimitiveArrays.mismatch(other, inRun ? current : before, i, i + 1), name + " element " + i);
                    }
                }
            }
        }
    }

    @Test
    void stampsAndStampedElementsFollowTheRunsOfTheMask() {
        long[] agreed = new long[200];
        long[] current = new long[200];
        for (int i = 0; i < 200; i++) {
            current[i] = i % 3 == 0 ? 0 : i; // runs of two changed elements
        }
        MaskedRun run = MaskedRun.diff(current, agreed, 0, 200);
        Stamps stamps = new Stamps(2000);
        run.stamp(stamps, 1000, 9); // the run's elements lie at 1000..1199: across two chunks of stamps
        for (int i = 0; i < 200; i++) {
            assertEquals(i % 3 == 0 ? 0 : 9, stamps.of(1000 + i), "stamp of " + i);
        }
        assertEquals(0, stamps.of(999));
        assertSame(run, run.notStampedAfter(stamps, 1000, 9));
        assertNull(run.notStampedAfter(stamps, 1000, 8));
        stamps.set(1001, 0);
        stamps.set(1199, 0);
        MaskedRun kept = run.notStampedAfter(stamps, 1000, 8);
        assertArrayEquals(new long[] {1, 199}, (long[]) kept.values);
    }

    @Test
    void stampsOfAWholeRunFillTheChunksItCrosses() {
        Stamps stamps = new Stamps(5000);
        stamps.set(1000, 3100, 4);
        assertEquals(0, stamps.of(999));
        assertEquals(4, stamps.of(1000));
        assertEquals(4, stamps.of(2047));
        assertEquals(4, stamps.of(2048));
        assertEquals(4, stamps.of(3099));
        assertEquals(0, stamps.of(3100));
        assertEquals(0, stamps.of(4999));
    }

    @Test
    void aRunWhoseMaskGoesPastItsLengthIsRefused() {
        WireBuffer out = new WireBuffer();
        out.appendInt(10);
        out.appendLong(1L << 10);
        PrimitiveArrays.write(out, new int[1]);
        assertThrows(IllegalArgumentException.class, () -> MaskedRun.read(ByteBuffer.wrap(out.toByteArray())));
    }
}
