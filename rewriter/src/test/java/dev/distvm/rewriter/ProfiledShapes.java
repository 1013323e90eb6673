package dev.distvm.rewriter;

/** Code shapes the profiling rewrite must keep working: each operand width, constructors, monitors. */
public final class ProfiledShapes {
    static long staticWide;
    long wide;
    double real;
    int narrow;
    Object reference;

    /** Writes a field of the outer object from an inner constructor before calling super (javac's this$0). */
    final class Inner {
        final int copy;

        Inner(int value) {
            this.copy = value + narrow;
        }
    }

    public static long run() {
        ProfiledShapes shapes = new ProfiledShapes();
        shapes.wide = 40_000_000_000L;
        shapes.real = 2.5;
        shapes.narrow = 7;
        shapes.reference = "x";
        staticWide = shapes.wide + 1;
        long[] longs = {1, 2};
        double[] doubles = {0.5};
        int[] ints = new int[3];
        byte[] bytes = new byte[1];
        char[] chars = new char[1];
        short[] shorts = new short[1];
        float[] floats = new float[1];
        Object[] objects = new Object[1];
        longs[1] = longs[0] + 5;
        doubles[0] = doubles[0] * 4;
        ints[2] = 9;
        bytes[0] = 3;
        chars[0] = 'a';
        shorts[0] = 4;
        floats[0] = 1.5f;
        objects[0] = shapes;
        long sum;
        synchronized (shapes) {
            sum = longs[1] + (long) doubles[0] + ints[2] + bytes[0] + chars[0] + shorts[0] + (long) floats[0]
                    + (objects[0] == shapes ? 1 : 0);
        }
        return sum + shapes.wide + (long) shapes.real + shapes.narrow + total(shapes) + shapes.new Inner(1).copy
                + staticWide + shapes.reference.hashCode();
    }

    private static synchronized long total(ProfiledShapes shapes) {
        return shapes.narrow;
    }
}
