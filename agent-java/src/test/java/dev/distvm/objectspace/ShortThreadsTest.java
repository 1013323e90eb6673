package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ShortThreadsTest {
    private static final long BRIEF = ShortThreads.SHORT_NANOS - 1;
    private static final long LONG = ShortThreads.SHORT_NANOS;

    @Test
    void aTaskIsJudgedOnlyAfterFourOfItsPlacedThreadsEnded() {
        ShortThreads rule = new ShortThreads();
        assertFalse(rule.tooShort(Runnable.class));
        for (int i = 0; i < ShortThreads.JUDGED_AFTER - 1; i++) {
            rule.ran(Runnable.class, BRIEF);
            assertFalse(rule.tooShort(Runnable.class), "judged after " + (i + 1));
        }
        rule.ran(Runnable.class, BRIEF);
        assertTrue(rule.tooShort(Runnable.class));
    }

    @Test
    void threeInFourBriefKeepsItHomeFewerDoNot() {
        ShortThreads rule = new ShortThreads();
        rule.ran(String.class, BRIEF);
        rule.ran(String.class, BRIEF);
        rule.ran(String.class, LONG);
        rule.ran(String.class, LONG);
        assertFalse(rule.tooShort(String.class), "two in four");
        for (int i = 0; i < 3; i++) {
            rule.ran(String.class, BRIEF);
        }
        assertFalse(rule.tooShort(String.class), "five in seven");
        rule.ran(String.class, BRIEF);
        assertTrue(rule.tooShort(String.class), "six in eight");
        assertFalse(rule.tooShort(Integer.class), "another task's threads say nothing of this one");
    }
}
