package dev.distvm.profile;

import dev.distvm.rewriter.AccessSites;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What each site number means. Written when classes are rewritten, read by every sampled access. */
final class SiteTable implements AccessSites {
    /** One access site; {@code staticsKey} stands for the statics of a static field's class. */
    record Site(Kind kind, String target, String className, String method, String sourceFile, int line, Object staticsKey) {
        String where() {
            String source = sourceFile == null ? className.substring(className.lastIndexOf('/') + 1) + ".class" : sourceFile;
            return source + (line > 0 ? ":" + line : "") + " (" + className.replace('/', '.') + "." + method + ")";
        }

        /** Whether the site changes its object: a write, or a monitor enter (which changes the lock). */
        boolean writes() {
            return switch (kind) {
                case FIELD_READ, STATIC_READ, ARRAY_READ -> false;
                case FIELD_WRITE, STATIC_WRITE, ARRAY_WRITE, MONITOR_ENTER, SYNCHRONIZED_METHOD -> true;
            };
        }

        String what() {
            return switch (kind) {
                case FIELD_READ, STATIC_READ -> "read of " + target.replace('/', '.');
                case FIELD_WRITE, STATIC_WRITE -> "write of " + target.replace('/', '.');
                case ARRAY_READ -> "read of an element of a " + target;
                case ARRAY_WRITE -> "write of an element of a " + target;
                case MONITOR_ENTER -> "synchronized block";
                case SYNCHRONIZED_METHOD -> "synchronized method";
            };
        }
    }

    /** One object per class whose statics some site touches: the sharing table's key for them. */
    private final Map<String, Object> staticsKeys = new HashMap<>();
    /**
     * The sites by number, the first {@link #count} filled; grown by doubling, and written again
     * after each new site so that the hooks, which read it without a lock, see the site.
     */
    private volatile Site[] sites = new Site[64];
    private int count;

    /**
     * Sites by what they are, so that a class rewritten again (another agent retransforming it
     * during the window) and accesses of one kind to one target on one line count as one site.
     */
    private final Map<List<Object>, Integer> numbers = new HashMap<>();

    @Override
    public synchronized int register(Kind kind, String target, String className, String method, String sourceFile, int line) {
        return numbers.computeIfAbsent(List.of(kind, target, className, method, line),
                key -> add(kind, target, className, method, sourceFile, line));
    }

    private int add(Kind kind, String target, String className, String method, String sourceFile, int line) {
        String staticsOf = switch (kind) {
            case STATIC_READ, STATIC_WRITE -> target.substring(0, target.lastIndexOf('.'));
            case SYNCHRONIZED_METHOD -> target;
            default -> null;
        };
        Object staticsKey = staticsOf == null ? null : staticsKeys.computeIfAbsent(staticsOf, name -> new Object());
        Site[] room = count < sites.length ? sites : Arrays.copyOf(sites, 2 * sites.length);
        room[count] = new Site(kind, target, className, method, sourceFile, line, staticsKey);
        sites = room;
        return count++;
    }

    Site site(int number) {
        return sites[number];
    }

    synchronized int size() {
        return count;
    }
}
