package dev.distvm.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import org.junit.jupiter.api.Test;

class ClassHierarchyTest {
    /** A class the hierarchy reads from its class file: a volatile field and a Thread for a superclass. */
    static final class Spinner extends Thread {
        volatile boolean done;
        int plain;

        void fill(byte[] bytes) {
            bytes[0] = 1;
        }
    }

    /** Statics named through subclasses. */
    static class DeclaresStatics {
        static int total;
        static int limit;
        int instanceCount;
    }

    interface Limits {
        int limit = 3;
    }

    static class NamesThem extends DeclaresStatics implements Limits {}

    /** A loader that finds this test's classes, or fails to read them as a worker whose home does not answer would. */
    private static ClassLoader loader(boolean readable) {
        return new ClassLoader(null) {
            @Override
            public InputStream getResourceAsStream(String name) {
                if (!readable) {
                    throw new IllegalStateException("the home did not answer");
                }
                return ClassHierarchyTest.class.getClassLoader().getResourceAsStream(name);
            }
        };
    }

    private static final String SPINNER = "dev/distvm/agent/ClassHierarchyTest$Spinner";

    @Test
    void answersFromTheClassFile() {
        ClassHierarchy hierarchy = new ClassHierarchy(loader(true));
        assertTrue(hierarchy.isVolatile(SPINNER, "done", "Z"));
        assertFalse(hierarchy.isVolatile(SPINNER, "plain", "I"));
        assertTrue(hierarchy.isThread(SPINNER));
    }

    @Test
    void knowsWhichMethodsAnApplicationClassInheritsFromTheJdk() {
        ClassHierarchy hierarchy = new ClassHierarchy(loader(true));
        assertFalse(hierarchy.inheritedFromJdk(SPINNER, "fill", "([B)V"), "declared by Spinner itself");
        assertTrue(hierarchy.inheritedFromJdk(SPINNER, "setName", "(Ljava/lang/String;)V"), "Thread's");
        assertFalse(hierarchy.inheritedFromJdk("dev/distvm/agent/ClassHierarchyTest", "hashCode", "()I"),
                "a class that extends Object alone inherits nothing that writes");
    }

    @Test
    void aStaticNamedThroughASubclassIsHeldByTheClassThatDeclaresIt() {
        ClassHierarchy hierarchy = new ClassHierarchy(loader(true));
        String names = "dev/distvm/agent/ClassHierarchyTest$NamesThem";
        String declares = "dev/distvm/agent/ClassHierarchyTest$DeclaresStatics";
        String samePackage = "dev/distvm/agent/Caller";
        assertEquals(declares, hierarchy.staticsHolder(names, "total", "I", samePackage));
        assertEquals(names, hierarchy.staticsHolder(names, "limit", "I", samePackage),
                "the interface's constant comes first, as the JVM resolves it");
        assertEquals(names, hierarchy.staticsHolder(names, "instanceCount", "I", samePackage), "not a static");
        assertNull(hierarchy.staticsHolder(names, "total", "I", "elsewhere/Caller"),
                "declared by a package-private class that another package may not name");
        assertEquals(declares, hierarchy.staticsHolder(declares, "total", "I", "elsewhere/Caller"),
                "named by the code as the class that declares it");
        assertEquals(names, hierarchy.staticsHolder(names, "missing", "I", samePackage));
    }

    @Test
    void aClassFileThatCannotBeReadFailsRatherThanBeGuessed() {
        ClassHierarchy hierarchy = new ClassHierarchy(loader(false));
        IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> hierarchy.isVolatile(SPINNER, "done", "Z"));
        assertTrue(failure.getMessage().contains("ClassHierarchyTest$Spinner"), failure.getMessage());
        assertThrows(IllegalStateException.class, () -> hierarchy.isThread(SPINNER));
    }

    @Test
    void aClassFileThatIsNotThereIsAnAnswer() {
        ClassHierarchy hierarchy = new ClassHierarchy(loader(true));
        assertFalse(hierarchy.isVolatile("no/such/Type", "field", "I"));
        assertFalse(hierarchy.isThread("no/such/Type"));
    }
}
