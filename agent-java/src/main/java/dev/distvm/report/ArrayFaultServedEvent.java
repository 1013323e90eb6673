package dev.distvm.report;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** The home's answer to a worker's fault on an array it sent on demand. */
@Name("dist.ArrayFaultServed")
@Label("Array Fault Served")
@Category({"dist", "Object Space"})
@Description("The home answered a worker's fault on an array it had sent on demand with the chunks asked for")
public final class ArrayFaultServedEvent extends jdk.jfr.Event {
    @Label("Worker Node")
    int worker;
    @Label("Array Class")
    String arrayClass;
    @Label("Chunks")
    int chunks;
    @Label("Bytes")
    @DataAmount
    long bytes;

    /** An answer's event, timing from now; null where there is no flight recorder. */
    public static ArrayFaultServedEvent starting() {
        if (!FlightEvents.AVAILABLE) {
            return null;
        }
        ArrayFaultServedEvent event = new ArrayFaultServedEvent();
        event.begin();
        return event;
    }

    public void ended(int workerNode, Class<?> type, int chunkCount, long byteCount) {
        end();
        if (shouldCommit()) {
            worker = workerNode;
            arrayClass = type.getTypeName();
            chunks = chunkCount;
            bytes = byteCount;
            commit();
        }
    }
}
