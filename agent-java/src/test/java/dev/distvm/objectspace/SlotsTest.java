package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SlotsTest {
    /** One field of every kind a slot can hold, in declaration order. */
    static class EveryKind {
        boolean flag;
        byte small;
        char letter;
        short medium;
        int count;
        long total;
        float ratio;
        double mean;
        String name;
        volatile int published;
    }

    static class Holder {
        static int counter = 5;
        static String label = "a";
    }

    static class WithFinal {
        final int fixed = 1;
    }

    private static final List<Object> FIRST = List.of(true, (byte) -3, 'x', (short) 300, 7, 1L << 40, 1.5f, -2.25, "ann", 9);
    private static final List<Object> SECOND = List.of(false, (byte) 4, 'y', (short) -2, 8, -5L, Float.NaN, Double.NaN, "bob", 10);

    @Test
    void everyKindOfFieldIsReadSetAndComparedAndSetAsTheFieldWould() {
        EveryKind holder = new EveryKind();
        Slots slots = Slots.of(holder);
        assertEquals(FIRST.size(), slots.count(holder));
        for (int slot = 0; slot < FIRST.size(); slot++) {
            slots.set(holder, slot, FIRST.get(slot));
        }
        assertEquals(FIRST, List.of(holder.flag, holder.small, holder.letter, holder.medium, holder.count, holder.total,
                holder.ratio, holder.mean, holder.name, holder.published));
        for (int slot = 0; slot < FIRST.size(); slot++) {
            assertEquals(FIRST.get(slot), slots.get(holder, slot), "slot " + slot);
            assertFalse(slots.compareAndSet(holder, slot, SECOND.get(slot), FIRST.get(slot)), "a stale expectation, slot " + slot);
            assertTrue(slots.compareAndSet(holder, slot, FIRST.get(slot), SECOND.get(slot)), "slot " + slot);
            assertEquals(SECOND.get(slot), slots.get(holder, slot), "slot " + slot);
            assertEquals(slot < 8 || slot == 9, slots.isPrimitive(slot));
            assertEquals(slot == 9, slots.isVolatile(slot));
        }
        // A NaN compares by its bits, as the field's own compare-and-set would: it matches itself.
        assertTrue(slots.compareAndSet(holder, 7, Double.NaN, 0.5));
        assertEquals(0.5, holder.mean);
    }

    @Test
    void referencesCompareByIdentity() {
        EveryKind holder = new EveryKind();
        String ann = new String("ann");
        holder.name = ann;
        Slots slots = Slots.of(holder);
        assertFalse(slots.compareAndSet(holder, 8, new String("ann"), "other"));
        assertTrue(slots.compareAndSet(holder, 8, ann, "other"));
        assertSame("other", holder.name);
    }

    @Test
    void staticsAreTheClassSlotsAndTheClassIsInitializedFirst() {
        Slots statics = Slots.of(Holder.class);
        assertEquals(2, statics.count(Holder.class));
        assertEquals(5, statics.get(Holder.class, 0));
        statics.set(Holder.class, 1, "b");
        assertEquals("b", Holder.label);
        assertTrue(statics.compareAndSet(Holder.class, 0, 5, 6));
        assertEquals(6, Holder.counter);
    }

    static class Shadowed {
        int hidden;
        int inherited;
    }

    static class Shadowing extends Shadowed {
        int hidden;
    }

    @Test
    void aFieldInstructionFindsItsSlotAsTheJvmResolvesTheField() {
        Slots slots = Slots.of(new Shadowing());
        String shadowed = Shadowed.class.getName().replace('.', '/');
        String shadowing = Shadowing.class.getName().replace('.', '/');
        // slots: Shadowed.hidden, Shadowed.inherited, Shadowing.hidden (superclass first)
        assertEquals(0, slots.fieldSlot(shadowed, "hidden"));
        assertEquals(2, slots.fieldSlot(shadowing, "hidden"));
        assertEquals(1, slots.fieldSlot(shadowing, "inherited"), "named through the subclass, declared by the superclass");
        assertEquals(-1, slots.fieldSlot(shadowing, "missing"));
        assertEquals(-1, slots.fieldSlot("some/OtherClass", "hidden"));
        assertEquals(1, Slots.of(Holder.class).fieldSlot(Holder.class.getName().replace('.', '/'), "label"));
        assertEquals(1, Slots.of(Holder.class).fieldSlot("a/SubclassOfHolder", "label"), "a class's statics, whoever named them");
    }

    @Test
    void aFinalFieldMeansTheClassWasNotRewritten() {
        UnsharableException refused = assertThrows(UnsharableException.class, () -> Slots.of(new WithFinal()));
        assertTrue(refused.getMessage().contains("field fixed is final"), refused.getMessage());
    }
}
