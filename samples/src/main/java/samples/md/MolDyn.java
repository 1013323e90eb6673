package samples.md;

import java.util.Arrays;
import samples.KernelTime;
import samples.barrier.Tournament;

/**
 * Molecular dynamics in the shape of the Java Grande Forum's multithreaded MolDyn: particles of a
 * Lennard-Jones fluid in a periodic box (a face-centred cubic lattice at the start, velocities from
 * a fixed generator), moved with velocity Verlet. Each thread owns every {@code threads}-th
 * particle; at every step it moves its particles, meets the others at a {@link Tournament} spin
 * barrier (as the benchmark's threads do), adds the
 * force of each pair whose lower particle it owns to both particles in force arrays of its own,
 * meets them again, adds its arrays into the shared forces under one lock per block of particles,
 * meets them a third time and finishes its particles' velocities. Main then checks that the last
 * step's shared forces are what one thread computes at the same positions, and that the total
 * energy drifted less than {@link #DRIFT_BOUND} of its start (the potential is shifted to zero at
 * the cutoff, so that the energy is conserved closely enough to tell).
 *
 * <p>Forces and energies are added as fixed-point {@code long}s, so that the sums, whatever order
 * the threads and locks take, are the same bits: the trajectory, and what main prints, are the same
 * for any thread count and any schedule.
 *
 * <p>What it exercises: three spin barriers per step, per-thread arrays summed into shared ones
 * under contended locks, and positions one thread wrote read by all right after a barrier.
 *
 * <p>usage: MolDyn [threads] [cells per side] [steps] (defaults 4, 6, 40: 864 particles)
 */
public final class MolDyn {
    private MolDyn() {}

    /**
     * The largest relative change of the total energy a sound integration shows over the run (at most
     * 1e-6 seen at the sizes allowed; one thread's forces missing from one step of 40 gave 3.7e-5).
     */
    private static final double DRIFT_BOUND = 1e-5;
    /** Units of force and energy per fixed-point unit: 2^-32. */
    private static final double FIXED = 4294967296.0;
    /** The lattice cell's side: (4 / 0.8442)^(1/3), the benchmark's density, as a constant (no cbrt). */
    private static final double CELL = 1.6795;
    private static final double CUTOFF = 2.5;
    /** The potential at the cutoff, subtracted so that a pair crossing it makes no jump in the energy. */
    private static final double SHIFT = shift();
    private static final double TIME_STEP = 0.002;
    private static final int BLOCK = 64;

    static int count;
    static double side;
    static double[] x, y, z, vx, vy, vz;
    /** The forces of the step, fixed point: each thread adds its own arrays in, block by block. */
    static long[] fx, fy, fz;
    static Object[] blockLocks;
    static final Potential potential = new Potential();
    static Tournament barrier;

    /** The last step's potential energy, fixed point: each thread adds its pairs'. */
    static final class Potential {
        long fixed;

        synchronized void add(long pairs) {
            fixed += pairs;
        }

        synchronized long get() {
            return fixed;
        }
    }

    /** One thread's particles (every threads-th from id) through all steps. */
    static final class Mover implements Runnable {
        private final int id, threads, steps;
        private final long[] ownX, ownY, ownZ;

        Mover(int id, int threads, int steps) {
            this.id = id;
            this.threads = threads;
            this.steps = steps;
            ownX = new long[count];
            ownY = new long[count];
            ownZ = new long[count];
        }

        @Override
        public void run() {
            for (int step = 0; step < steps; step++) {
                for (int i = id; i < count; i += threads) {
                    vx[i] += 0.5 * TIME_STEP * (fx[i] / FIXED);
                    vy[i] += 0.5 * TIME_STEP * (fy[i] / FIXED);
                    vz[i] += 0.5 * TIME_STEP * (fz[i] / FIXED);
                    x[i] = wrap(x[i] + TIME_STEP * vx[i]);
                    y[i] = wrap(y[i] + TIME_STEP * vy[i]);
                    z[i] = wrap(z[i] + TIME_STEP * vz[i]);
                }
                barrier.await(id);
                long mine = addForces(id, threads, ownX, ownY, ownZ);
                if (step == steps - 1) {
                    potential.add(mine);
                }
                for (int i = id; i < count; i += threads) {
                    fx[i] = 0;
                    fy[i] = 0;
                    fz[i] = 0;
                }
                barrier.await(id);
                int blocks = blockLocks.length;
                for (int k = 0; k < blocks; k++) {
                    int b = (k + id) % blocks; // each thread starts at another block
                    synchronized (blockLocks[b]) {
                        for (int i = b * BLOCK, end = Math.min(count, i + BLOCK); i < end; i++) {
                            fx[i] += ownX[i];
                            fy[i] += ownY[i];
                            fz[i] += ownZ[i];
                        }
                    }
                }
                barrier.await(id);
                // The second half kick reads only this thread's forces: the next step's moves need no barrier first.
                for (int i = id; i < count; i += threads) {
                    vx[i] += 0.5 * TIME_STEP * (fx[i] / FIXED);
                    vy[i] += 0.5 * TIME_STEP * (fy[i] / FIXED);
                    vz[i] += 0.5 * TIME_STEP * (fz[i] / FIXED);
                }
            }
        }
    }

    /**
     * The forces of the pairs whose lower particle is one of thread id's, into the thread's arrays
     * (both particles of each pair); returns their potential energy, fixed point.
     */
    static long addForces(int id, int threads, long[] ownX, long[] ownY, long[] ownZ) {
        Arrays.fill(ownX, 0);
        Arrays.fill(ownY, 0);
        Arrays.fill(ownZ, 0);
        long potential = 0;
        double cutoff2 = CUTOFF * CUTOFF;
        for (int i = id; i < count; i += threads) {
            for (int j = i + 1; j < count; j++) {
                double dx = nearest(x[i] - x[j]), dy = nearest(y[i] - y[j]), dz = nearest(z[i] - z[j]);
                double r2 = dx * dx + dy * dy + dz * dz;
                if (r2 < cutoff2) {
                    double inv2 = 1.0 / r2, inv6 = inv2 * inv2 * inv2;
                    double scalar = 48.0 * inv2 * inv6 * (inv6 - 0.5);
                    long px = Math.round(scalar * dx * FIXED), py = Math.round(scalar * dy * FIXED),
                            pz = Math.round(scalar * dz * FIXED);
                    ownX[i] += px;
                    ownY[i] += py;
                    ownZ[i] += pz;
                    ownX[j] -= px;
                    ownY[j] -= py;
                    ownZ[j] -= pz;
                    potential += Math.round((4.0 * inv6 * (inv6 - 1.0) - SHIFT) * FIXED);
                }
            }
        }
        return potential;
    }

    private static double shift() {
        double inv2 = 1.0 / (CUTOFF * CUTOFF), inv6 = inv2 * inv2 * inv2;
        return 4.0 * inv6 * (inv6 - 1.0);
    }

    /** The minimum-image difference in the periodic box. */
    static double nearest(double d) {
        if (d > 0.5 * side) {
            return d - side;
        }
        return d < -0.5 * side ? d + side : d;
    }

    static double wrap(double coordinate) {
        if (coordinate >= side) {
            return coordinate - side;
        }
        return coordinate < 0 ? coordinate + side : coordinate;
    }

    /** The face-centred cubic lattice of cells per side, and velocities from a fixed generator with no net momentum. */
    static void place(int cells) {
        count = 4 * cells * cells * cells;
        side = cells * CELL;
        x = new double[count];
        y = new double[count];
        z = new double[count];
        vx = new double[count];
        vy = new double[count];
        vz = new double[count];
        double[][] corners = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
        int n = 0;
        for (int i = 0; i < cells; i++) {
            for (int j = 0; j < cells; j++) {
                for (int k = 0; k < cells; k++) {
                    for (double[] corner : corners) {
                        x[n] = (i + corner[0]) * CELL;
                        y[n] = (j + corner[1]) * CELL;
                        z[n] = (k + corner[2]) * CELL;
                        n++;
                    }
                }
            }
        }
        long seed = 20061;
        double sx = 0, sy = 0, sz = 0;
        for (int i = 0; i < count; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            vx[i] = ((seed >>> 11) / (double) (1L << 53)) - 0.5;
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            vy[i] = ((seed >>> 11) / (double) (1L << 53)) - 0.5;
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            vz[i] = ((seed >>> 11) / (double) (1L << 53)) - 0.5;
            sx += vx[i];
            sy += vy[i];
            sz += vz[i];
        }
        for (int i = 0; i < count; i++) {
            vx[i] -= sx / count;
            vy[i] -= sy / count;
            vz[i] -= sz / count;
        }
    }

    static double kinetic() {
        double sum = 0;
        for (int i = 0; i < count; i++) {
            sum += vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i];
        }
        return 0.5 * sum;
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int cells = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        if (cells * CELL <= 2 * CUTOFF) {
            throw new IllegalArgumentException("the box needs at least 3 cells per side, for the cutoff of " + CUTOFF);
        }
        place(cells);
        potential.fixed = 0;
        fx = new long[count];
        fy = new long[count];
        fz = new long[count];
        long[] startX = new long[count], startY = new long[count], startZ = new long[count];
        double startEnergy = kinetic() + addForces(0, 1, startX, startY, startZ) / FIXED;
        System.arraycopy(startX, 0, fx, 0, count);
        System.arraycopy(startY, 0, fy, 0, count);
        System.arraycopy(startZ, 0, fz, 0, count);
        blockLocks = new Object[(count + BLOCK - 1) / BLOCK];
        for (int b = 0; b < blockLocks.length; b++) {
            blockLocks[b] = new int[0];
        }
        barrier = new Tournament(threads);
        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(new Mover(t, threads, steps), "md-" + t);
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        KernelTime.report(kernel);
        long[] lastX = new long[count], lastY = new long[count], lastZ = new long[count];
        long lastPotential = addForces(0, 1, lastX, lastY, lastZ);
        if (!Arrays.equals(lastX, fx) || !Arrays.equals(lastY, fy) || !Arrays.equals(lastZ, fz)
                || lastPotential != potential.get()) {
            throw new IllegalStateException("the last step's forces or potential differ from one thread's sum at the"
                    + " same positions: the threads' sums are wrong");
        }
        // The potential was taken at the last step's positions, before its velocities were finished.
        double endEnergy = kinetic() + potential.get() / FIXED;
        double drift = Math.abs(endEnergy - startEnergy) / Math.abs(startEnergy);
        if (!(drift < DRIFT_BOUND)) {
            throw new IllegalStateException("the total energy drifted by " + drift + " of its start (" + startEnergy
                    + " to " + endEnergy + "), not below " + DRIFT_BOUND + ": the forces are wrong");
        }
        System.out.printf("molecular dynamics of %d particles, %d steps: energy %.9f to %.9f, drift %.3e (below %.0e)%n",
                count, steps, startEnergy, endEnergy, drift, DRIFT_BOUND);
    }
}
