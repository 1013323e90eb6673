package dev.distvm.report;

/**
 * Whether dist's JDK Flight Recorder events are worth making here. A JVM built without the
 * {@code jdk.jfr} module has no event class to extend: loading one there would fail. A JVM that has
 * it but records nothing would pay for the recorder's start-up at the first event class dist loads
 * (80-100 ms of a worker's thread, at its first remote monitor enter); its recorder is initialized
 * once any recording starts, from the command line, {@code jcmd} or the API, and the events are made
 * from then on. Callers ask {@link #recording()} before they name an event class at all.
 */
public final class FlightEvents {
    private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    private FlightEvents() {}

    /** Whether a recording may want dist's events: the recorder exists and has been started. */
    public static boolean recording() {
        return AVAILABLE && Recorder.initialized();
    }

    /** Names {@code jdk.jfr} only where {@link #AVAILABLE} said it is there. */
    private static final class Recorder {
        static boolean initialized() {
            return jdk.jfr.FlightRecorder.isInitialized();
        }
    }
}
