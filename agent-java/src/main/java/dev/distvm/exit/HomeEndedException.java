package dev.distvm.exit;

/**
 * A worker asked for the home after the home ended the run normally (it left the cluster): what
 * the worker was doing for a run that is over (a lease going back, a last release) has nobody to
 * go to, and is not a failure.
 */
public final class HomeEndedException extends IllegalStateException {
    public HomeEndedException(int homeId) {
        super("the home (node " + homeId + ") ended the run");
    }

    /** Whether {@code failure} came of the home having ended the run. */
    public static boolean causedBy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HomeEndedException) {
                return true;
            }
        }
        return false;
    }
}
