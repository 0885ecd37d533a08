package io.columnarkafka.testkit.soak;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An SVG line plot of heap after full GC (MiB) against minutes, one line per process lifetime, with a dashed
 * vertical line at each fault, a grey band from each fault until its phase settles (samples there are left out of
 * the heap check) and a thin black line per phase for its least-squares fit ({@link HeapTrend#perPhase}). Plain SVG,
 * no library: the soak's plot is generated from its CSV data by this code.
 */
public final class SoakPlot {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;
    private static final int LEFT = 70;
    private static final int RIGHT = 220;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
        "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

    private SoakPlot() {}

    /** The SVG document. */
    public static String svg(String title, List<HeapSample> samples, List<SoakFault> faults) {
        double maxMinutes = Math.max(1, samples.stream().mapToDouble(HeapSample::minutes).max().orElse(1));
        maxMinutes = Math.max(maxMinutes, faults.stream().mapToDouble(SoakFault::minutes).max().orElse(0));
        double maxMib = Math.max(1, samples.stream().mapToDouble(s -> mib(s.bytes())).max().orElse(1) * 1.15);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"14\">%s</text>%n", LEFT,
                escape(title)));
        axes(svg, maxMinutes, maxMib);
        for (SoakFault fault : faults) {
            double x = x(fault.minutes(), maxMinutes);
            double settled = x(Math.min(maxMinutes, HeapTrend.settledAfter(fault)), maxMinutes);
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                    + " fill=\"#eee\"/>%n", x, TOP, settled - x, HEIGHT - BOTTOM - TOP));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\""
                    + " stroke-dasharray=\"4 3\"/>%n", x, TOP, x, HEIGHT - BOTTOM));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" fill=\"#666\""
                    + " transform=\"rotate(-90 %.1f %d)\">%s</text>%n", x - 2, TOP + 4, x - 2, TOP + 4,
                    escape(shortName(fault.description()))));
        }
        int colour = 0;
        int legendY = TOP + 10;
        for (Map.Entry<String, List<HeapSample>> segment : HeapTrend.segments(samples).entrySet()) {
            String stroke = COLOURS[colour++ % COLOURS.length];
            StringBuilder points = new StringBuilder();
            for (HeapSample s : segment.getValue()) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(s.minutes(), maxMinutes),
                        y(mib(s.bytes()), maxMib)));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\""
                    + " stroke-width=\"1.5\"/>%n", points.toString().trim(), stroke));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\""
                    + " stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">%s</text>%n", WIDTH - RIGHT + 15, legendY - 4,
                    WIDTH - RIGHT + 35, legendY - 4, stroke, WIDTH - RIGHT + 40, legendY,
                    escape(segment.getKey())));
            legendY += 16;
        }
        for (List<HeapSample> phase : HeapTrend.phases(samples, faults).values()) {
            if (phase.size() >= HeapTrend.MIN_SAMPLES) {
                double[] fit = HeapTrend.centredSums(phase);
                double slope = fit[1] == 0 ? 0 : fit[0] / fit[1];
                double from = phase.get(0).minutes();
                double to = phase.get(phase.size() - 1).minutes();
                svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
                        + " stroke=\"black\" stroke-width=\"1\"/>%n", x(from, maxMinutes),
                        y(mib(fit[3] + slope * (from - fit[2])), maxMib), x(to, maxMinutes),
                        y(mib(fit[3] + slope * (to - fit[2])), maxMib)));
            }
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\">black: fit per phase;"
                + " grey: left out (fault until settled)</text>%n", WIDTH - RIGHT + 15, HEIGHT - BOTTOM));
        return svg.append("</svg>\n").toString();
    }

    private static void axes(StringBuilder svg, double maxMinutes, double maxMib) {
        int x0 = LEFT;
        int y0 = HEIGHT - BOTTOM;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                x0, y0, WIDTH - RIGHT, y0));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                x0, TOP, x0, y0));
        for (int i = 0; i <= 5; i++) {
            double minutes = maxMinutes * i / 5;
            double mib = maxMib * i / 5;
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.1f</text>%n",
                    x(minutes, maxMinutes), y0 + 16, minutes));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>%n",
                    x0 - 6, y(mib, maxMib) + 4, mib));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">minutes</text>%n",
                (x0 + WIDTH - RIGHT) / 2, HEIGHT - 12));
        svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\""
                + " text-anchor=\"middle\">heap after full GC (MiB)</text>%n", (TOP + y0) / 2, (TOP + y0) / 2));
    }

    private static double x(double minutes, double maxMinutes) {
        return LEFT + (WIDTH - LEFT - RIGHT) * minutes / maxMinutes;
    }

    private static double y(double mib, double maxMib) {
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * mib / maxMib;
    }

    private static double mib(double bytes) {
        return bytes / (1024.0 * 1024.0);
    }

    private static String shortName(String description) {
        return description.length() > 28 ? description.substring(0, 28) : description;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
