package io.columnarkafka.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * The columnar JSON decoder (decode + Arrow build) against Flink's {@code
 * JsonParserRowDataDeserializationSchema} by the project's method: each cell (dataset × batch size) runs in
 * a fresh JVM ({@link JsonDecoderCell}) where both sides are measured in the same run, in rounds of the same
 * wall time per side with the order rotated each round, round 0 an uncounted warm-up. The report gives per
 * side the median rows/s, MB/s of JSON in, this thread's CPU per row and bytes allocated per row, and for the
 * columnar side the per-round ratios to Flink (rows/s and CPU per row) as median, min and max. A cell whose
 * parity check fails (rows that differ from Flink's) or whose JVM fails is a FAIL row.
 *
 * <p>Usage: {@code JsonDecoderComparison [datasets=bid,adversarial,wide] [batches=4096] [rounds=8]
 * [seconds=2] [javaOpts=-Xms2g -Xmx2g] [out=bench-results/decoders-<date>]}; writes {@code <out>.md} and
 * {@code <out>.csv} (every side's figures per round).
 */
public final class JsonDecoderComparison {
    /** The target for the columnar decoder at batch 4096. */
    private static final double TARGET = 5.0;
    private static final int TARGET_BATCH = 4096;

    private JsonDecoderComparison() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(Map.of("format", "json", "datasets", "bid,adversarial,wide",
                "batches", "4096", "rounds", "8", "seconds", "2", "javaOpts", "-Xms2g -Xmx2g -XX:+AlwaysPreTouch",
                "out", "bench-results/decoders-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0 || !options.containsKey(arg.substring(0, eq))) {
                throw new IllegalArgumentException("unknown argument " + arg + "; known: " + options.keySet());
            }
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        int rounds = Integer.parseInt(options.get("rounds"));
        if (rounds < 2) {
            throw new IllegalArgumentException("rounds must be at least 2: round 0 is the uncounted warm-up");
        }
        Path out = Path.of(options.get("out"));
        Files.createDirectories(out.toAbsolutePath().getParent());
        double loadBefore = MachineLoad.oneMinute(Files.readString(Path.of("/proc/loadavg")));
        List<Cell> cells = new ArrayList<>();
        for (String dataset : options.get("datasets").split(",")) {
            for (String batch : options.get("batches").split(",")) {
                cells.add(run(dataset, Integer.parseInt(batch), rounds, options, out));
            }
        }
        double loadAfter = MachineLoad.oneMinute(Files.readString(Path.of("/proc/loadavg")));
        String report = report(cells, options, out, MachineLoad.sentence(loadBefore, loadAfter));
        Files.writeString(Path.of(out + ".md"), report);
        Files.writeString(Path.of(out + ".csv"), csv(cells));
        System.out.println(report);
    }

    /** One cell's outcome: the child's figures, or why it has none. */
    private record Cell(String dataset, int batch, Properties figures, String failure) {
        boolean passed() {
            return failure == null;
        }

        double inputBytesPerRow() {
            return Double.parseDouble(figures.getProperty("inputBytesPerRow"));
        }

        int rounds() {
            return Integer.parseInt(figures.getProperty("rounds"));
        }

        double figure(String side, int round, String name) {
            return Double.parseDouble(figures.getProperty(side + "." + round + "." + name));
        }

        /** A figure of one side over the counted rounds (1..). */
        Spread side(String side, String name) {
            return counted(round -> figure(side, round, name));
        }

        /** The columnar side's figure over Flink's, paired by round. */
        Spread ratio(String name) {
            return counted(round -> figure("columnar", round, name) / figure("flink", round, name));
        }

        private Spread counted(Function<Integer, Double> perRound) {
            List<Double> values = new ArrayList<>();
            for (int round = 1; round < rounds(); round++) {
                values.add(perRound.apply(round));
            }
            return Spread.of(values);
        }
    }

    private static Cell run(String dataset, int batch, int rounds, Map<String, String> options, Path out) {
        String label = dataset + " batch " + batch;
        System.out.println("== " + label);
        Path result = Path.of(out + "-" + dataset + "-" + batch + ".properties");
        Path log = Path.of(out + "-" + dataset + "-" + batch + ".log");
        try {
            Properties figures = ChildJvm.run(JsonDecoderCell.class, List.of(options.get("format"), dataset,
                    Integer.toString(batch),
                    Integer.toString(rounds), options.get("seconds"), result.toString()), options.get("javaOpts"),
                    result, log, Duration.ofMinutes(30), label);
            Files.deleteIfExists(result);
            Files.deleteIfExists(log);
            String parity = figures.getProperty("parity");
            return new Cell(dataset, batch, figures, "ok".equals(parity) ? null : "parity: " + parity);
        } catch (Exception e) {
            return new Cell(dataset, batch, new Properties(), "run failed: " + e.getMessage());
        }
    }

    private static String report(List<Cell> cells, Map<String, String> options, Path out, String load) {
        StringBuilder md = new StringBuilder();
        boolean json = options.get("format").equals("json");
        md.append("## ").append(options.get("format")).append(" decoders: columnar decode + Arrow build vs Flink's"
                        + " deserializer, interleaved (").append(out).append(".md)\n\n")
                .append(load).append("\n\n")
                .append(json ? "Single thread. Flink: `JsonParserRowDataDeserializationSchema.deserialize(bytes, collector)` per"
                        + " record; columnar: `JsonBatchDecoder.decode(records)` into Arrow vectors, then closing them."
                        : "Single thread. Flink: `AvroRowDataDeserializationSchema` over `RegistryAvroDeserializationSchema`"
                        + " (as `RegistryAvroFormatFactory` builds it; Confluent's registry coder transcribed, one cached"
                        + " id), `deserialize(bytes, collector)` per record; columnar: `AvroConfluentBatchDecoder.decode("
                        + "records)` into Arrow vectors, then closing them. The records are Flink's avro-confluent"
                        + " serializer's, the rows NOT NULL.")
                .append(" Each cell runs in a fresh JVM (`").append(options.get("javaOpts")).append("`): both sides,")
                .append(String.format(Locale.ROOT, " %d rounds of %s s per side, the order rotated per round,"
                        + " round 0 an uncounted warm-up.", Integer.parseInt(options.get("rounds")), options.get("seconds")))
                .append(" Before timing, the decoded rows are checked against Flink's (a mismatch is a FAIL row)."
                        + " rows/s, CPU and allocation are medians over the counted rounds; the ratios are paired by"
                        + " round (median, min – max). CPU and allocation are the measuring thread's. PASS needs a"
                        + " median rows/s ratio >= ").append(TARGET).append("x at batch ").append(TARGET_BATCH)
                .append(".\n\n")
                .append("| dataset | batch | side | rows/s | MB/s in | B/row in | CPU ns/row | B/row alloc |"
                        + " rows/s vs Flink | CPU/row vs Flink | verdict |\n")
                .append("|---|---:|---|---:|---:|---:|---:|---:|---|---|---|\n");
        for (Cell c : cells) {
            if (!c.passed()) {
                md.append(String.format(Locale.ROOT, "| %s | %d | both | | | | | | | | FAIL (%s) |\n", c.dataset(),
                        c.batch(), c.failure().replace('|', '/').replace('\n', ' ')));
                continue;
            }
            for (String side : JsonDecoderCell.SIDES) {
                double rows = c.side(side, "rowsPerSecond").median();
                boolean columnar = side.equals("columnar");
                Spread speed = c.ratio("rowsPerSecond");
                String verdict = !columnar || c.batch() != TARGET_BATCH ? "" : speed.median() >= TARGET ? "PASS" : "FAIL";
                md.append(String.format(Locale.ROOT, "| %s | %d | %s | %,.0f | %.1f | %.1f | %.1f | %.1f | %s | %s | %s |\n",
                        c.dataset(), c.batch(), side, rows, rows * c.inputBytesPerRow() / 1e6, c.inputBytesPerRow(),
                        c.side(side, "cpuNanosPerRow").median(), c.side(side, "allocatedBytesPerRow").median(),
                        columnar ? speed.ratio() : "", columnar ? c.ratio("cpuNanosPerRow").ratio() : "", verdict));
            }
        }
        return md.toString();
    }

    private static String csv(List<Cell> cells) {
        StringBuilder csv = new StringBuilder("dataset,batch,round,side,rowsPerSecond,cpuNanosPerRow,allocatedBytesPerRow,"
                + "inputBytesPerRow,failure\n");
        for (Cell c : cells) {
            if (!c.passed()) {
                csv.append(String.format(Locale.ROOT, "%s,%d,,,,,,,\"%s\"\n", c.dataset(), c.batch(),
                        c.failure().replace('"', '\'').replace('\n', ' ')));
                continue;
            }
            for (int round = 0; round < c.rounds(); round++) {
                for (String side : JsonDecoderCell.SIDES) {
                    csv.append(String.format(Locale.ROOT, "%s,%d,%d,%s,%.0f,%.2f,%.2f,%.1f,\n", c.dataset(), c.batch(),
                            round, side, c.figure(side, round, "rowsPerSecond"), c.figure(side, round, "cpuNanosPerRow"),
                            c.figure(side, round, "allocatedBytesPerRow"), c.inputBytesPerRow()));
                }
            }
        }
        return csv.toString();
    }
}
