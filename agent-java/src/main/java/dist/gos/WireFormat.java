package dist.gos;

import dist.gos.Twin.Change;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/** The parts that object-space messages share: sequence numbers and groups of changes. */
final class WireFormat {
    private WireFormat() {}

    static void sequence(WireWriter writer, long sequence) {
        try {
            writer.body().writeLong(sequence);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long sequence(WireReader reader) {
        try {
            return reader.body().readLong();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void changeGroups(WireWriter writer, List<Long> ids, List<List<Change>> changes) {
        try {
            writer.body().writeInt(ids.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i < ids.size(); i++) {
            writer.changes(ids.get(i), changes.get(i));
        }
    }

    static void readChangeGroups(WireReader reader, BiConsumer<Long, List<Change>> each) {
        int groups;
        try {
            groups = reader.body().readInt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int g = 0; g < groups; g++) {
            List<Change> changes = new ArrayList<>();
            long id = reader.changes(changes);
            each.accept(id, changes);
        }
    }
}
