package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ApplicationClassesTest {
    @Test
    void jdkAndDistClassesAreNotApplicationClasses() {
        assertFalse(ApplicationClasses.isApplicationClass("java/util/HashMap", false));
        assertFalse(ApplicationClasses.isApplicationClass("dev/distvm/agent/Agent", false));
        assertFalse(ApplicationClasses.isApplicationClass("com/example/App", true));
        assertFalse(ApplicationClasses.isApplicationClass(null, false));
        assertTrue(ApplicationClasses.isApplicationClass("com/example/App", false));
    }
}
