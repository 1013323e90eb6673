package dev.distvm.objectspace;

import dev.distvm.objectspace.Twin.Change;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/** The part that object-space messages share: groups of changes. */
final class WireFormat {
    private WireFormat() {}

    /** A holder's changes as one group of a message. */
    record Group(long id, List<Change> changes, Twin twin) {}

    static void changeGroups(WireWriter writer, List<Group> groups) {
        writer.body().appendInt(groups.size());
        for (Group group : groups) {
            writer.changes(group.id(), group.changes(), group.twin());
        }
    }

    /**
     * A home scan's groups, led by whether the scan saw the masters whole (see {@link
     * HomeSpace#writeRefresh}); the worker reads that first ({@link WorkerSpace#applyChanges}).
     */
    static void scanGroups(WireWriter writer, List<Group> groups, boolean whole) {
        writer.body().appendBoolean(whole);
        changeGroups(writer, groups);
    }

    static void readChangeGroups(WireReader reader, BiConsumer<Long, List<Change>> each) {
        int groups = reader.body().getInt();
        for (int g = 0; g < groups; g++) {
            List<Change> changes = new ArrayList<>();
            long id = reader.changes(changes);
            each.accept(id, changes);
        }
    }
}
