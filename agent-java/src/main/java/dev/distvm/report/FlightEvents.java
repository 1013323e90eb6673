package dev.distvm.report;

/**
 * Whether dist's JDK Flight Recorder events can be made here: a JVM built without the
 * {@code jdk.jfr} module has no event class to extend, and then no event is made. Callers check
 * this before they name an event class at all: loading one there would fail.
 */
public final class FlightEvents {
    public static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    private FlightEvents() {}
}
