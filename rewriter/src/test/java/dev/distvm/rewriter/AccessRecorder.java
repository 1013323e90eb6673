package dev.distvm.rewriter;

import java.util.ArrayList;
import java.util.List;

/** The hook of the profiling rewrite in tests: every call, in order. */
public final class AccessRecorder {
    static final String OWNER = AccessRecorder.class.getName().replace('.', '/');
    /** One hook call: the target object and the site's number. */
    record Call(Object target, int site) {}

    static final List<Call> CALLS = new ArrayList<>();

    private AccessRecorder() {}

    public static synchronized void access(Object target, int site) {
        CALLS.add(new Call(target, site));
    }
}
