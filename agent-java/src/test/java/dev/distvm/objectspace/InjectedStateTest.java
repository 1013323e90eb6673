package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class InjectedStateTest {
    /** As the rewriter leaves a root application class: the meta field injected. */
    static class Root {
        public transient Object $dist$meta;
    }

    static class Sub extends Root {
        int value;
    }

    /** An application class that was not rewritten: no meta, so never shared. */
    static class Unrewritten {
        Object field;
    }

    @Test
    void metaSetByTheObjectSpaceIsReadBackForTheRootAndItsSubclasses() {
        Object rootMeta = new Object();
        Object subMeta = new Object();
        Root root = new Root();
        Sub sub = new Sub();
        assertNull(InjectedState.metaIfInjected(root));
        InjectedState.setMeta(root, rootMeta);
        InjectedState.setMeta(sub, subMeta);
        assertSame(rootMeta, InjectedState.meta(root));
        assertSame(rootMeta, InjectedState.metaIfInjected(root));
        assertSame(subMeta, InjectedState.meta(sub));
        assertSame(subMeta, InjectedState.metaIfInjected(sub));
        assertNull(InjectedState.metaIfInjected(new Sub()));
    }

    @Test
    void anObjectWithoutTheFieldHasNoMetaAndCannotBeShared() {
        assertNull(InjectedState.metaIfInjected(new ArrayList<>()));
        assertNull(InjectedState.metaIfInjected(new Unrewritten()));
        assertThrows(UnsharableException.class, () -> InjectedState.meta(new Unrewritten()));
        assertThrows(UnsharableException.class, () -> InjectedState.setMeta(new Unrewritten(), 1L));
    }
}
