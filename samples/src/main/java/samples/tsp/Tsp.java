package samples.tsp;

import samples.KernelTime;

/**
 * Travelling salesman by branch and bound (Manta §4.1). Cities are fixed pseudo-random points,
 * distances rounded Euclidean. Every tour starts at city 0; a shared JobQueue (synchronized next())
 * holds all partial tours 0, a, b of three cities, and Searcher threads (a Runnable class) take jobs
 * and search them depth first, pruning any partial tour that is already no shorter than the shared
 * Minimum (volatile read, synchronized update). How much gets pruned depends on the schedule; the
 * optimal length does not, so main prints only the number of cities, jobs and that length.
 *
 * <p>usage: Tsp [threads] [cities] (defaults 4, 12)
 */
public final class Tsp {
    private Tsp() {}

    static int[][] dist;

    static final class Job {
        final int second, third;
        Job(int second, int third) { this.second = second; this.third = third; }
    }

    static final class JobQueue {
        private final Job[] jobs;
        private int next;
        JobQueue(Job[] jobs) { this.jobs = jobs; }
        synchronized Job next() { return next < jobs.length ? jobs[next++] : null; }
    }

    static final class Minimum {
        private volatile int best = Integer.MAX_VALUE;
        int get() { return best; }
        synchronized void update(int length) { if (length < best) best = length; }
    }

    static final class Searcher implements Runnable {
        private final JobQueue queue;
        private final Minimum minimum;
        private final boolean[] visited;

        Searcher(JobQueue queue, Minimum minimum) {
            this.queue = queue;
            this.minimum = minimum;
            this.visited = new boolean[dist.length];
        }

        @Override
        public void run() {
            for (Job job = queue.next(); job != null; job = queue.next()) {
                visited[0] = visited[job.second] = visited[job.third] = true;
                search(job.third, 3, dist[0][job.second] + dist[job.second][job.third]);
                visited[0] = visited[job.second] = visited[job.third] = false;
            }
        }

        private void search(int city, int depth, int length) {
            if (length >= minimum.get()) return;
            int n = dist.length;
            if (depth == n) {
                minimum.update(length + dist[city][0]);
                return;
            }
            for (int next = 1; next < n; next++) {
                if (visited[next]) continue;
                visited[next] = true;
                search(next, depth + 1, length + dist[city][next]);
                visited[next] = false;
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 12;
        int[] x = new int[n], y = new int[n];
        long seed = 42;
        for (int i = 0; i < n; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            x[i] = (int) ((seed >>> 33) % 1000);
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            y[i] = (int) ((seed >>> 33) % 1000);
        }
        dist = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                long dx = x[i] - x[j], dy = y[i] - y[j];
                dist[i][j] = (int) (Math.sqrt(dx * dx + dy * dy) + 0.5);
            }
        }
        Job[] jobs = new Job[(n - 1) * (n - 2)];
        int count = 0;
        for (int a = 1; a < n; a++) {
            for (int b = 1; b < n; b++) {
                if (a != b) jobs[count++] = new Job(a, b);
            }
        }
        JobQueue queue = new JobQueue(jobs);
        Minimum minimum = new Minimum();
        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(new Searcher(queue, minimum), "tsp-" + t);
            workers[t].start();
        }
        for (Thread w : workers) w.join();
        KernelTime.report(kernel);
        System.out.printf("cities %d jobs %d shortest tour %d%n", n, count, minimum.get());
    }
}
