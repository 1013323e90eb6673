package dev.distvm.objectspace;

import dev.distvm.io.WorkerStreams;
import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import java.util.function.BiConsumer;

/**
 * The program's environment as the home has it: the default locale and time zone, and the system
 * properties the program set (with {@code -D} on its command line, or at run time before a thread
 * starts). They are the home's, like the program's files, and a thread placed on a worker reads
 * them as it would at the home. Each thread's start carries the locale and time zone (before, a
 * program that set {@code Locale.GERMANY} printed "3.14" from its threads on workers and "3,14" from
 * the others) and the properties that changed since the last start sent to that worker (before,
 * {@code Integer.getInteger("size", 100)} in a placed thread read 100 where the program was given
 * {@code -Dsize=7}). The properties a placed thread sets go home with its end, before {@code join}
 * returns there (on one JVM the other threads would see them at once; here threads on other nodes
 * see them from their next start on); a locale or time zone a placed thread sets stays on its
 * worker. The JVM's own properties (paths, versions) are each node's and are not sent, unless the
 * program set them; but the class path is the program's, so the home's is (a placed thread read
 * the worker's dist.jar).
 */
final class ProgramEnvironment {
    /** The properties as they were before the program ran (after dist's agent set its own). */
    private final Properties baseline;
    /** The properties named by a {@code -D} option of this JVM's command line. */
    private final Set<String> commandLine;
    /** Per worker, what the starts sent to it so far said (a null value: cleared). */
    private final Map<Integer, Map<String, String>> sent = new HashMap<>();
    /** On a worker: each property as the home's starts last set it or this node's threads left it. */
    private static Properties agreedOnWorker;

    private ProgramEnvironment(Properties baseline, Set<String> commandLine) {
        this.baseline = baseline;
        this.commandLine = commandLine;
    }

    /** Taken at the home as dist starts, before {@code main}: {@code arguments} are this JVM's command line. */
    static ProgramEnvironment atStart(List<String> arguments) {
        Properties baseline = new Properties();
        baseline.putAll(System.getProperties());
        Set<String> commandLine = new HashSet<>();
        for (String argument : arguments) {
            if (argument.startsWith("-D") && argument.length() > 2) {
                int equals = argument.indexOf('=');
                commandLine.add(equals < 0 ? argument.substring(2) : argument.substring(2, equals));
            }
        }
        return new ProgramEnvironment(baseline, commandLine);
    }

    /**
     * Writes the environment for a start on {@code node}: the default locale, its format and display
     * locales, the default time zone and the charsets of the home's {@code System.out} and
     * {@code System.err}, then the properties that changed since its last start.
     */
    synchronized void writeChanges(int node, WireBuffer out) {
        out.appendString(Locale.getDefault().toLanguageTag());
        out.appendString(Locale.getDefault(Locale.Category.FORMAT).toLanguageTag());
        out.appendString(Locale.getDefault(Locale.Category.DISPLAY).toLanguageTag());
        out.appendString(TimeZone.getDefault().getID());
        out.appendString(WorkerStreams.encodingOf("stdout"));
        out.appendString(WorkerStreams.encodingOf("stderr"));
        Map<String, String> now = programs();
        Map<String, String> last = sent.getOrDefault(node, Map.of());
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, String> entry : now.entrySet()) {
            if (!last.containsKey(entry.getKey()) || !Objects.equals(last.get(entry.getKey()), entry.getValue())) {
                changed.add(entry.getKey());
            }
        }
        Map<String, String> record = new HashMap<>(now);
        for (String key : last.keySet()) {
            if (!now.containsKey(key)) {
                // Back to its value before the program ran: the worker gets that value, not its own.
                changed.add(key);
                record.put(key, baseline.getProperty(key));
            }
        }
        write(out, changed, record);
        sent.put(node, record);
    }

    /** The home's side of a placed thread's end: sets what the threads of {@code node} set there. */
    synchronized void applyFromWorker(int node, ByteBuffer in) {
        Map<String, String> record = sent.computeIfAbsent(node, n -> new HashMap<>());
        read(in, (key, value) -> {
            set(key, value);
            record.put(key, value); // the worker holds it already
        });
    }

    /**
     * On a worker, before its first thread arrives: reads the default time zone and locales, as the
     * first start's {@link #apply} does before any placed thread runs (the JDK loads its time-zone
     * data then: 4-5 ms that the first placed thread waited for). A program sees the same: its
     * first thread here runs after {@code apply}, which reads them anyway.
     */
    static void prepareOnWorker() {
        TimeZone.getDefault();
        Locale.getDefault().toLanguageTag();
    }

    /** A worker's side of a start: sets what {@link #writeChanges} wrote (a property's null: clears it). */
    static synchronized void apply(ByteBuffer in) {
        String locale = WireReader.string(in);
        String format = WireReader.string(in);
        String display = WireReader.string(in);
        String zone = WireReader.string(in);
        WorkerStreams.encodeAs(WireReader.string(in), WireReader.string(in));
        if (!Locale.getDefault().toLanguageTag().equals(locale)) {
            Locale.setDefault(Locale.forLanguageTag(locale));
        }
        if (!Locale.getDefault(Locale.Category.FORMAT).toLanguageTag().equals(format)) {
            Locale.setDefault(Locale.Category.FORMAT, Locale.forLanguageTag(format));
        }
        if (!Locale.getDefault(Locale.Category.DISPLAY).toLanguageTag().equals(display)) {
            Locale.setDefault(Locale.Category.DISPLAY, Locale.forLanguageTag(display));
        }
        if (!TimeZone.getDefault().getID().equals(zone)) {
            TimeZone.setDefault(TimeZone.getTimeZone(zone));
        }
        Properties agreed = agreedOnWorker();
        read(in, (key, value) -> {
            set(key, value);
            agree(agreed, key, value);
        });
    }

    /**
     * A worker's side of a placed thread's end: what this node's placed threads set or cleared
     * since the last. Asked at every placed thread's end: no copy of the properties.
     */
    static synchronized void writeLeftByThreads(WireBuffer out) {
        Properties agreed = agreedOnWorker();
        Map<String, String> changed = new HashMap<>();
        System.getProperties().forEach((key, value) -> {
            if (key instanceof String name && value instanceof String text && !text.equals(agreed.getProperty(name))) {
                changed.put(name, text);
            }
        });
        agreed.forEach((key, value) -> {
            if (key instanceof String name && System.getProperty(name) == null) {
                changed.put(name, null);
            }
        });
        write(out, new ArrayList<>(changed.keySet()), changed);
        changed.forEach((key, value) -> agree(agreed, key, value));
    }

    private static void agree(Properties agreed, String key, String value) {
        if (value == null) {
            agreed.remove(key);
        } else {
            agreed.setProperty(key, value);
        }
    }

    private static Properties agreedOnWorker() {
        if (agreedOnWorker == null) {
            agreedOnWorker = new Properties();
            agreedOnWorker.putAll(System.getProperties());
        }
        return agreedOnWorker;
    }

    /** [count] then, per key, [key][set?][value]. */
    private static void write(WireBuffer out, List<String> keys, Map<String, String> values) {
        out.appendInt(keys.size());
        for (String key : keys) {
            String value = values.get(key);
            out.appendString(key);
            out.appendBoolean(value != null);
            if (value != null) {
                out.appendString(value);
            }
        }
    }

    private static void read(ByteBuffer in, BiConsumer<String, String> each) {
        int count = in.getInt();
        WireReader.bounded(in, count);
        for (int i = 0; i < count; i++) {
            String key = WireReader.string(in);
            each.accept(key, in.get() != 0 ? WireReader.string(in) : null);
        }
    }

    private static void set(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    /**
     * The program's properties now: those of its command line, and those it set or cleared since it
     * started (a null value). Asked at every placed thread's start: no copy of the properties.
     */
    private Map<String, String> programs() {
        Map<String, String> programs = new HashMap<>();
        // The program's class path is the home's (a worker runs with dist.jar's, and fetches the classes).
        programs.put("java.class.path", System.getProperty("java.class.path"));
        for (String key : commandLine) {
            programs.put(key, System.getProperty(key));
        }
        System.getProperties().forEach((key, value) -> {
            if (key instanceof String name && value instanceof String text && !text.equals(baseline.getProperty(name))) {
                programs.put(name, text);
            }
        });
        baseline.forEach((key, value) -> {
            if (key instanceof String name && System.getProperty(name) == null) {
                programs.put(name, null);
            }
        });
        return programs;
    }
}
