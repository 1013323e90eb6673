package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class StaticsHoldersTest {
    static class Declares {
        static int inherited;
        static volatile int shadowed;
    }

    static class Names extends Declares {
        static int shadowed;
    }

    static class NamesFurther extends Names {}

    @Test
    void aStaticNamedThroughASubclassLivesInTheClassThatDeclaresIt() {
        assertSame(Declares.class, StaticsHolders.declaring(NamesFurther.class, "inherited"));
        assertSame(Names.class, StaticsHolders.declaring(NamesFurther.class, "shadowed"), "the nearest declaration");
        assertSame(Declares.class, StaticsHolders.declaring(Declares.class, "shadowed"));
        assertSame(NamesFurther.class, StaticsHolders.declaring(NamesFurther.class, "missing"), "unknown: the class named");
    }

    @Test
    void aStaticWriteMayHaveChangedTheStaticsOfTheApplicationSuperclassesOnly() {
        assertArrayEquals(new Class<?>[] {NamesFurther.class, Names.class, Declares.class},
                StaticsHolders.mayHold(NamesFurther.class));
        assertArrayEquals(new Class<?>[] {StaticsHoldersTest.class}, StaticsHolders.mayHold(StaticsHoldersTest.class),
                "Object, a JDK class, holds no application statics");
    }
}
