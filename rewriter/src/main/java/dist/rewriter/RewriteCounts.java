package dist.rewriter;

import dist.rewriter.ObjectSpaceRewriter.Kind;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** What the visitors of one class did, collected for the {@link ObjectSpaceRewriter.Result}. */
final class RewriteCounts {
    private final EnumMap<Kind, Integer> counts = new EnumMap<>(Kind.class);

    void add(Kind kind) {
        counts.merge(kind, 1, Integer::sum);
    }

    boolean changedClass() {
        return counts.keySet().stream().anyMatch(Kind::changesClass);
    }

    Map<Kind, Integer> snapshot() {
        return Collections.unmodifiableMap(new EnumMap<>(counts));
    }
}
