package dev.distvm.report;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A worker's fault on an array it got on demand: the chunks fetched from the home, and how long the
 * thread waited. Made only where {@link FlightEvents#recording()}.
 */
@Name("dist.ArrayFault")
@Label("Array Fault")
@Category({"dist", "Object Space"})
@Description("A thread on a worker fetched chunks of an array sent on demand from the home and waited for them")
public final class ArrayFaultEvent extends ArrayChunksEvent {
    /** A fault's event, timing from now. */
    public static ArrayFaultEvent starting() {
        ArrayFaultEvent event = new ArrayFaultEvent();
        event.begin();
        return event;
    }

    public void ended(Class<?> type, int chunkCount, long byteCount) {
        commit(type, chunkCount, byteCount);
    }
}
