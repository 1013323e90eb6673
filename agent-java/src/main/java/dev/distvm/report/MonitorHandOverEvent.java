package dev.distvm.report;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A shared monitor that came to a worker's thread from another node (through the home's lease grant). */
@Name("dist.MonitorHandOver")
@Label("Monitor Hand-over Across Nodes")
@Category({"dist", "Monitors"})
@Description("A thread on a worker took a shared monitor that another node, or the home, held before it")
public final class MonitorHandOverEvent extends jdk.jfr.Event {
    @Label("Monitor Class")
    String monitorClass;

    /** Records the hand-over if the recording wants it. Made only where {@link FlightEvents#recording()}. */
    public static void acrossNodes(Object monitor) {
        MonitorHandOverEvent event = new MonitorHandOverEvent();
        if (event.shouldCommit()) {
            event.monitorClass = MonitorHandOverCounts.monitorName(monitor);
            event.commit();
        }
    }
}
