package dev.distvm.report;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A worker's fault on an array it got on demand: the chunks fetched from the home, and how long the thread waited. */
@Name("dist.ArrayFault")
@Label("Array Fault")
@Category({"dist", "Object Space"})
@Description("A thread on a worker fetched chunks of an array sent on demand from the home and waited for them")
public final class ArrayFaultEvent extends jdk.jfr.Event {
    @Label("Array Class")
    String arrayClass;
    @Label("Chunks")
    int chunks;
    @Label("Bytes")
    @DataAmount
    long bytes;

    /** A fault's event, timing from now; null where there is no flight recorder. */
    public static ArrayFaultEvent starting() {
        if (!FlightEvents.AVAILABLE) {
            return null;
        }
        ArrayFaultEvent event = new ArrayFaultEvent();
        event.begin();
        return event;
    }

    public void ended(Class<?> type, int chunkCount, long byteCount) {
        end();
        if (shouldCommit()) {
            arrayClass = type.getTypeName();
            chunks = chunkCount;
            bytes = byteCount;
            commit();
        }
    }
}
