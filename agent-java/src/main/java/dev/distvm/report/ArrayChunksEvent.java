package dev.distvm.report;

import jdk.jfr.DataAmount;
import jdk.jfr.Label;

/** What the events of arrays sent on demand share: the array's class, and the chunks and bytes that crossed. */
abstract class ArrayChunksEvent extends jdk.jfr.Event {
    @Label("Array Class")
    String arrayClass;
    @Label("Chunks")
    int chunks;
    @Label("Bytes")
    @DataAmount
    long bytes;

    /** Ends the event, and records it with these figures if the recording wants it. */
    final void commit(Class<?> type, int chunkCount, long byteCount) {
        end();
        if (shouldCommit()) {
            arrayClass = type.getTypeName();
            chunks = chunkCount;
            bytes = byteCount;
            commit();
        }
    }
}
