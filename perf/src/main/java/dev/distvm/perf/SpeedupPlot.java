package dev.distvm.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;

/**
 * An SVG plot of kernel speedup against node count: one line per program and encryption setting
 * (dashed in clear), the ideal line, and the speedups JESSICA published for its ray tracer and
 * red/black SOR on 2 and 8 nodes (83 % and 68 %, 75 % and 42 % efficiency; Ma, Wang and Lau 2000,
 * §4.1), which are the points this project compares itself with.
 */
final class SpeedupPlot {
    /** One line: a program's kernel speedup by node count. */
    record Series(String program, boolean encrypted, SortedMap<Integer, Double> speedups) {}

    private static final Map<String, double[][]> JESSICA = Map.of(
            "JESSICA ray tracer", new double[][] {{2, 2 * 0.83}, {8, 8 * 0.68}},
            "JESSICA R/B SOR", new double[][] {{2, 2 * 0.75}, {8, 8 * 0.42}});
    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
            "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
            "#3182bd", "#e6550d", "#31a354"};
    private static final int LEFT = 60, TOP = 40, SIDE = 420, LEGEND = 300;

    private SpeedupPlot() {}

    static void write(Path file, String title, int maxNodes, List<Series> series) throws IOException {
        double max = maxNodes;
        StringBuilder svg = new StringBuilder();
        int width = LEFT + SIDE + 40 + LEGEND;
        int height = Math.max(TOP + SIDE + 60, TOP + 20 * (series.size() + JESSICA.size() + 2));
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
                width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text>%n", LEFT, escape(title)));
        for (int tick = 0; tick <= maxNodes; tick++) {
            double at = SIDE * tick / max;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                    + "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>%n",
                    LEFT + at, TOP, LEFT + at, TOP + SIDE, LEFT, TOP + SIDE - at, LEFT + SIDE, TOP + SIDE - at));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>%n",
                    LEFT + at, TOP + SIDE + 16, tick, LEFT - 6, TOP + SIDE - at + 4, tick));
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>%n",
                LEFT, TOP, SIDE, SIDE));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">nodes</text>%n",
                LEFT + SIDE / 2, TOP + SIDE + 34));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">"
                + "kernel speedup over 1 node</text>%n", TOP + SIDE / 2, TOP + SIDE / 2));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\" stroke-dasharray=\"2,4\"/>%n",
                LEFT, TOP + SIDE, LEFT + SIDE, TOP));
        int legendY = TOP + 10;
        legend(svg, legendY, "black", "2,4", "ideal");
        for (int i = 0; i < series.size(); i++) {
            Series line = series.get(i);
            String colour = COLOURS[i % COLOURS.length];
            String dash = line.encrypted() ? "none" : "6,3";
            StringBuilder points = new StringBuilder();
            for (Map.Entry<Integer, Double> point : line.speedups().entrySet()) {
                double x = LEFT + SIDE * point.getKey() / max;
                double y = TOP + SIDE - SIDE * Math.min(point.getValue(), max) / max;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", x, y, colour));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\""
                    + " stroke-dasharray=\"%s\"/>%n", points.toString().strip(), colour, dash));
            legend(svg, legendY += 20, colour, dash, line.program() + (line.encrypted() ? "" : " (clear)"));
        }
        for (Map.Entry<String, double[][]> published : JESSICA.entrySet()) {
            legendY += 20;
            boolean rayTracer = published.getKey().contains("ray");
            for (double[] point : published.getValue()) {
                if (point[0] > maxNodes) {
                    continue;
                }
                svg.append(marker(LEFT + SIDE * point[0] / max, TOP + SIDE - SIDE * point[1] / max, rayTracer));
            }
            svg.append(marker(LEFT + SIDE + 50, legendY - 4, rayTracer));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s (published)</text>%n", LEFT + SIDE + 66, legendY,
                    escape(published.getKey())));
        }
        svg.append("</svg>\n");
        Files.writeString(file, svg);
    }

    private static void legend(StringBuilder svg, int y, String colour, String dash, String label) {
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\""
                + " stroke-dasharray=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n", LEFT + SIDE + 40, y - 4, LEFT + SIDE + 60,
                y - 4, colour, dash, LEFT + SIDE + 66, y, escape(label)));
    }

    /** A published point: a square for the ray tracer, a triangle for SOR. */
    private static String marker(double x, double y, boolean square) {
        return square
                ? String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"none\" stroke=\"black\"/>%n",
                        x - 4, y - 4)
                : String.format(Locale.ROOT, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"black\"/>%n",
                        x, y - 5, x - 5, y + 4, x + 5, y + 4);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
