package samples.raytrace;

import java.util.concurrent.atomic.AtomicInteger;
import samples.KernelTime;

/**
 * JESSICA's ray tracer: a fixed scene of spheres on a floor lit by point lights, with shadows and
 * mirror reflections. Worker threads (Runnable lambdas) take line numbers from a shared job queue
 * whose next() is synchronized and write the pixels of that line into a shared int[] image. Every
 * pixel is a pure function of its coordinates (only +, -, *, / and Math.sqrt, which Java defines
 * exactly), so main prints the same size and checksum for any thread count and any schedule.
 *
 * <p>With {@code atomic}, lines are handed out as many real renderers do it instead: each thread
 * runs a {@link Renderer} that takes line numbers from a shared {@code AtomicInteger} and counts
 * the rays it traced, and main prints the total too.
 *
 * <p>usage: RayTracer [threads] [width] [height] [synchronized|atomic]
 */
public final class RayTracer {
    private RayTracer() {}

    static final class Vec {
        final double x, y, z;
        Vec(double x, double y, double z) { this.x = x; this.y = y; this.z = z; }
        Vec add(Vec o) { return new Vec(x + o.x, y + o.y, z + o.z); }
        Vec sub(Vec o) { return new Vec(x - o.x, y - o.y, z - o.z); }
        Vec mul(double s) { return new Vec(x * s, y * s, z * s); }
        Vec times(Vec o) { return new Vec(x * o.x, y * o.y, z * o.z); }
        double dot(Vec o) { return x * o.x + y * o.y + z * o.z; }
        Vec norm() { return mul(1.0 / Math.sqrt(dot(this))); }
    }

    static final class Sphere {
        final Vec center, color;
        final double radius, reflect;
        Sphere(Vec center, double radius, Vec color, double reflect) {
            this.center = center; this.radius = radius; this.color = color; this.reflect = reflect;
        }
        /** Distance along the unit ray to the nearest hit in front of the origin, or -1. */
        double hit(Vec origin, Vec dir) {
            Vec oc = origin.sub(center);
            double b = oc.dot(dir), c = oc.dot(oc) - radius * radius, disc = b * b - c;
            if (disc < 0) return -1;
            double s = Math.sqrt(disc), t = -b - s;
            if (t > 1e-6) return t;
            t = -b + s;
            return t > 1e-6 ? t : -1;
        }
    }

    static final class Scene {
        final Sphere[] spheres;
        final Vec[] lights;
        Scene(Sphere[] spheres, Vec[] lights) { this.spheres = spheres; this.lights = lights; }

        Vec trace(Vec origin, Vec dir, int depth) {
            Sphere nearest = null;
            double best = Double.MAX_VALUE;
            for (Sphere s : spheres) {
                double t = s.hit(origin, dir);
                if (t > 0 && t < best) { best = t; nearest = s; }
            }
            if (nearest == null) return new Vec(0.1, 0.1, 0.2 + 0.3 * dir.y * dir.y);
            Vec p = origin.add(dir.mul(best));
            Vec normal = p.sub(nearest.center).norm();
            Vec light = new Vec(0.05, 0.05, 0.05);
            for (Vec l : lights) {
                Vec toLight = l.sub(p);
                double lightDist = Math.sqrt(toLight.dot(toLight));
                Vec ld = toLight.mul(1.0 / lightDist);
                double diffuse = normal.dot(ld);
                if (diffuse <= 0 || shadowed(p, ld, lightDist)) continue;
                Vec half = ld.sub(dir).norm();
                double spec = Math.max(0, normal.dot(half));
                spec *= spec; spec *= spec; spec *= spec; spec *= spec; spec *= spec; // ^32
                light = light.add(new Vec(diffuse, diffuse, diffuse).mul(0.7)).add(new Vec(spec, spec, spec).mul(0.4));
            }
            Vec color = nearest.color.times(light);
            if (depth < 4 && nearest.reflect > 0) {
                Vec r = dir.sub(normal.mul(2 * dir.dot(normal)));
                color = color.mul(1 - nearest.reflect).add(trace(p, r, depth + 1).mul(nearest.reflect));
            }
            return color;
        }

        boolean shadowed(Vec p, Vec dir, double maxDist) {
            for (Sphere s : spheres) {
                double t = s.hit(p, dir);
                if (t > 0 && t < maxDist) return true;
            }
            return false;
        }
    }

    /** Hands out line numbers 0, 1, 2, ... to whichever worker asks first. */
    static final class LineQueue {
        private final int lines;
        private int next;
        LineQueue(int lines) { this.lines = lines; }
        synchronized int next() { return next < lines ? next++ : -1; }
    }

    /** A renderer thread's task in {@code atomic} mode, with its own statistics. */
    static final class Renderer implements Runnable {
        final AtomicInteger nextLine;
        long raysTraced;
        Renderer(AtomicInteger nextLine) { this.nextLine = nextLine; }

        @Override
        public void run() {
            for (int y = nextLine.getAndIncrement(); y < height; y = nextLine.getAndIncrement()) {
                renderLine(y);
                raysTraced += 4L * width;
            }
        }
    }

    static Scene scene;
    static int[] image;
    static int width, height;

    static Scene buildScene() {
        Sphere[] s = {
            new Sphere(new Vec(0, -1004, 20), 1000, new Vec(0.8, 0.8, 0.7), 0.2),
            new Sphere(new Vec(0, 0, 20), 4, new Vec(1.0, 0.3, 0.3), 0.5),
            new Sphere(new Vec(6, -1, 18), 3, new Vec(0.3, 1.0, 0.4), 0.3),
            new Sphere(new Vec(-6, -1.5, 22), 2.5, new Vec(0.3, 0.4, 1.0), 0.6),
            new Sphere(new Vec(-2, -3, 13), 1, new Vec(1.0, 1.0, 0.2), 0.1),
            new Sphere(new Vec(3, 5, 26), 2, new Vec(0.9, 0.9, 0.9), 0.8),
        };
        Vec[] lights = {new Vec(-20, 20, 0), new Vec(15, 30, 10)};
        return new Scene(s, lights);
    }

    static void renderLine(int y) {
        Vec eye = new Vec(0, 0, 0);
        for (int x = 0; x < width; x++) {
            double r = 0, g = 0, b = 0;
            for (int sy = 0; sy < 2; sy++) {
                for (int sx = 0; sx < 2; sx++) { // 2x2 supersampling
                    double px = ((x + 0.25 + 0.5 * sx) / width - 0.5) * 1.6 * width / height;
                    double py = (0.5 - (y + 0.25 + 0.5 * sy) / height) * 1.6;
                    Vec c = scene.trace(eye, new Vec(px, py, 1.5).norm(), 0);
                    r += c.x; g += c.y; b += c.z;
                }
            }
            image[y * width + x] = (channel(r) << 16) | (channel(g) << 8) | channel(b);
        }
    }

    static int channel(double sum) {
        double v = sum * 0.25;
        return v >= 1 ? 255 : v <= 0 ? 0 : (int) (v * 255);
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        width = args.length > 1 ? Integer.parseInt(args[1]) : 1600;
        height = args.length > 2 ? Integer.parseInt(args[2]) : 1200;
        boolean atomic = args.length > 3 && args[3].equals("atomic");
        scene = buildScene();
        image = new int[width * height];
        LineQueue queue = new LineQueue(height);
        AtomicInteger nextLine = new AtomicInteger();
        Renderer[] renderers = new Renderer[threads];
        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            renderers[t] = new Renderer(nextLine);
            Runnable task = atomic ? renderers[t] : () -> {
                for (int y = queue.next(); y >= 0; y = queue.next()) renderLine(y);
            };
            workers[t] = new Thread(task, "raytrace-" + t);
            workers[t].start();
        }
        for (Thread w : workers) w.join();
        KernelTime.report(kernel);
        long checksum = 0;
        for (int p : image) checksum = checksum * 1_000_003L + p;
        System.out.printf("image %dx%d checksum %016x%n", width, height, checksum);
        if (atomic) {
            long rays = 0;
            for (Renderer r : renderers) rays += r.raysTraced;
            System.out.printf("primary rays %d%n", rays);
        }
    }
}
