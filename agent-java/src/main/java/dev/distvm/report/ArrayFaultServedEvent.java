package dev.distvm.report;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** The home's answer to a worker's fault on an array it sent on demand. Made only where {@link FlightEvents#recording()}. */
@Name("dist.ArrayFaultServed")
@Label("Array Fault Served")
@Category({"dist", "Object Space"})
@Description("The home answered a worker's fault on an array it had sent on demand with the chunks asked for")
public final class ArrayFaultServedEvent extends ArrayChunksEvent {
    @Label("Worker Node")
    int worker;

    /** An answer's event, timing from now. */
    public static ArrayFaultServedEvent starting() {
        ArrayFaultServedEvent event = new ArrayFaultServedEvent();
        event.begin();
        return event;
    }

    public void ended(int workerNode, Class<?> type, int chunkCount, long byteCount) {
        worker = workerNode;
        commit(type, chunkCount, byteCount);
    }
}
