package dev.distvm.objectspace;

import dev.distvm.fuzz.DecoderContract;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;

/**
 * An object-space message ({@link WireReader}: its numbers, the holders it carries whole, their
 * values), then its body as the message types read theirs, picked by the body's first byte: plain
 * values, groups of changes (a release, a refresh), a placed thread's task, a thread's uncaught
 * exception. What {@link WireReader} documents: a malformed message fails with
 * IllegalArgumentException or IllegalStateException, one cut short with BufferUnderflowException,
 * a class that cannot be instantiated here with UnsharableException.
 */
public final class ObjectSpaceMessageFuzz {
    private static final ClassLoader LOADER = ObjectSpaceMessageFuzz.class.getClassLoader();

    private ObjectSpaceMessageFuzz() {}

    public static void fuzzerTestOneInput(byte[] message) throws Throwable {
        DecoderContract.check(message, () -> {
            WireReader reader = new WireReader(new FuzzHolders(), LOADER, ByteBuffer.wrap(message));
            ByteBuffer body = reader.body();
            if (!body.hasRemaining()) {
                return;
            }
            switch (body.get() % 4) {
                case 0 -> {
                    while (body.hasRemaining()) {
                        reader.value();
                    }
                }
                case 1 -> WireFormat.readChangeGroups(reader, (id, changes) -> {});
                case 2 -> ThreadTasks.read(reader);
                default -> UncaughtExceptions.read(body, LOADER);
            }
        }, IllegalArgumentException.class, IllegalStateException.class, BufferUnderflowException.class,
                UnsharableException.class);
    }
}
