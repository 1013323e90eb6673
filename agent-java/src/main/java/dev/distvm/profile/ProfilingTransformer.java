package dev.distvm.profile;

import dev.distvm.rewriter.AccessProfilingRewriter;
import dev.distvm.rewriter.ApplicationClasses;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Rewrites the application's classes for one profiling window (retransformed ones and those loaded
 * during it) and remembers which, so that the window's end can give them back their own bytes. A
 * class whose loader cannot see {@link AccessHooks} (a loader that does not delegate to the
 * application class loader, where attaching put dist.jar) is left alone: its rewritten code could
 * not link. Any failure leaves the class as it was.
 */
final class ProfilingTransformer implements ClassFileTransformer {
    private static final String HOOKS = AccessHooks.class.getName().replace('.', '/');

    private final SiteTable sites;
    private final Map<ClassLoader, Boolean> seesHooks = new WeakHashMap<>();
    private final Set<Class<?>> retransformed = new LinkedHashSet<>();
    /** Classes first defined during the window: their loader and name, to be found once loaded. */
    private final Map<ClassLoader, Set<String>> definedDuringWindow = new WeakHashMap<>();
    private int failures;

    ProfilingTransformer(SiteTable sites) {
        this.sites = sites;
    }

    /** Whether the class is the application's and could call the hooks once rewritten. */
    synchronized boolean isProfiled(ClassLoader loader, String internalName) {
        if (loader == null || loader == ClassLoader.getPlatformClassLoader()
                || !ApplicationClasses.isApplicationClass(internalName, false)) {
            return false;
        }
        return seesHooks.computeIfAbsent(loader, ProfilingTransformer::loads);
    }

    private static boolean loads(ClassLoader loader) {
        try {
            return Class.forName(AccessHooks.class.getName(), false, loader) == AccessHooks.class;
        } catch (Throwable e) {
            return false;
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
        try {
            if (!isProfiled(loader, className)) {
                return null;
            }
            byte[] rewritten = AccessProfilingRewriter.rewrite(bytes, HOOKS, sites);
            synchronized (this) {
                if (redefined != null) {
                    retransformed.add(redefined);
                } else {
                    definedDuringWindow.computeIfAbsent(loader, any -> new HashSet<>()).add(className);
                }
            }
            return rewritten;
        } catch (Throwable e) {
            synchronized (this) {
                failures++;
            }
            return null;
        }
    }

    /** The classes this transformer rewrote, among those loaded now. */
    synchronized List<Class<?>> rewritten(Class<?>[] loaded) {
        Set<Class<?>> classes = new LinkedHashSet<>(retransformed);
        for (Class<?> type : loaded) {
            Set<String> names = definedDuringWindow.get(type.getClassLoader());
            if (names != null && names.contains(type.getName().replace('.', '/'))) {
                classes.add(type);
            }
        }
        return new ArrayList<>(classes);
    }

    /** How many classes this transformer rewrote, retransformed or as they were defined. */
    synchronized int rewrittenCount() {
        return retransformed.size() + definedDuringWindow.values().stream().mapToInt(Set::size).sum();
    }

    synchronized int failures() {
        return failures;
    }
}
