package dev.distvm.report;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A worker's enter of a shared monitor that asked the home for the lease, timed from the ask to the grant. */
@Name("dist.RemoteMonitorEnter")
@Label("Remote Monitor Enter")
@Category({"dist", "Monitors"})
@Description("A thread on a worker entered a shared monitor whose lease its node did not hold: it asked the home and waited")
public final class RemoteMonitorEnterEvent extends jdk.jfr.Event {
    @Label("Monitor Class")
    String monitorClass;

    /** An enter's event, timing from now. Made only where {@link FlightEvents#recording()}. */
    public static RemoteMonitorEnterEvent starting() {
        RemoteMonitorEnterEvent event = new RemoteMonitorEnterEvent();
        event.begin();
        return event;
    }

    public void ended(Object monitor) {
        end();
        if (shouldCommit()) {
            monitorClass = MonitorHandOverCounts.monitorName(monitor);
            commit();
        }
    }
}
