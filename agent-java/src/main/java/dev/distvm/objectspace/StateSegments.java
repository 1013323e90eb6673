package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The holder states of a message being written, in segments that never move: a buffer that grew
 * by doubling copied a large array's elements at every doubling (three quarters of the time a
 * home spent writing 48 MB of arrays went to growing buffers). Here the elements are copied once
 * into a segment and once into the message, which is sized once ({@link #appendTo}).
 */
final class StateSegments {
    private static final int SEGMENT_BYTES = 1 << 20;
    /** A larger state goes into a segment that grows as it is written (the message could not hold it anyway). */
    private static final int LARGEST_SEGMENT_BYTES = 1 << 30;

    private final List<WireBuffer> full = new ArrayList<>();
    private WireBuffer tail = new WireBuffer();
    private long fullBytes;

    /** The buffer to append about {@code bytes} bytes to: the current segment if they fit, else a new one that holds them. */
    WireBuffer room(long bytes) {
        int wanted = (int) Math.min(LARGEST_SEGMENT_BYTES, Math.max(bytes, 0));
        if (tail.length() > 0 && tail.length() + (long) wanted > SEGMENT_BYTES) {
            full.add(tail);
            fullBytes += tail.length();
            tail = new WireBuffer(Math.max(wanted, SEGMENT_BYTES));
        }
        return tail;
    }

    long length() {
        return fullBytes + tail.length();
    }

    /** Appends every segment, in order, to {@code message}, which the caller has made room in. */
    void appendTo(WireBuffer message) {
        for (WireBuffer segment : full) {
            message.appendBytes(segment);
        }
        message.appendBytes(tail);
    }
}
