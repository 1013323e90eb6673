package dev.distvm.objectspace;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/** A node's table of shared holders for one fuzz input: empty at first, filled by what the message carries. */
final class FuzzHolders implements Holders {
    private final Map<Long, Object> byId = new HashMap<>();
    private final Map<Object, Long> ids = new IdentityHashMap<>();

    @Override
    public long idOf(Object holder) {
        return ids.getOrDefault(holder, 0L);
    }

    @Override
    public Object byId(long id) {
        return byId.get(id);
    }

    @Override
    public long share(Object holder, Pushed pushed) {
        throw new UnsupportedOperationException("a decoder shares nothing");
    }

    @Override
    public void adopt(long id, Kind kind, Object instance, int identityHash) {
        byId.put(id, instance);
        ids.put(instance, id);
    }

    @Override
    public int identityHash(Object holder) {
        return System.identityHashCode(holder);
    }

    /**
     * What a worker grants is its free heap; here a part of the decoder contract's fixed allowance,
     * so that arrays on demand are fuzzed too and stay within what the contract checks.
     */
    @Override
    public long onDemandAllowance() {
        return 256 << 10;
    }

    @Override
    public ClassLoader loader() {
        return FuzzHolders.class.getClassLoader();
    }
}
