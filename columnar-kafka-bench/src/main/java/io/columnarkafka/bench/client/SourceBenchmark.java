package io.columnarkafka.bench.client;

import io.columnarkafka.bench.FlinkJson;
import io.columnarkafka.bench.MachineLoad;
import io.columnarkafka.bench.Spread;
import io.columnarkafka.client.ArrowKafkaBatch;
import io.columnarkafka.client.ArrowKafkaSource;
import io.columnarkafka.client.ArrowKafkaSourceConfig;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The standalone consumer against its Flink-format baseline, in the same run on one embedded broker and one topic of
 * Nexmark Bid JSON records (written by Flink's JSON serializer): (source) {@link ArrowKafkaSource} reading the topic
 * bounded at its end into Arrow batches, and (flink) a {@code KafkaConsumer<byte[], byte[]>} with Flink's JSON
 * deserializer on each value, as the json format's default decode path ({@code JsonParserRowDataDeserializationSchema};
 * {@code JsonRowDataDeserializationSchema} is its legacy tree path). One thread each, one variant at a time, the
 * same consumer settings.
 *
 * <p>An uncounted warm-up round of both comes first and checks parity: both must read every record and the same sum
 * of {@code auction} and {@code price} (a FAIL row otherwise). Then rounds alternate which variant runs first; each
 * round's ratio source/flink of rows per second is reported with the median, min and max, beside process CPU per row
 * (the broker is another JVM, so not counted; Kafka's fetch work is in both).
 *
 * <p>Arguments: {@code [--rounds N] [--rows N] [--out DIR]}.
 */
public final class SourceBenchmark {
    private static final int PARTITIONS = 2;
    private static final Map<String, String> CONSUMER = Map.of("max.poll.records", "4096",
            "fetch.max.bytes", "52428800", "max.partition.fetch.bytes", "8388608");

    private final int rounds;
    private final int rows;
    private final Path out;
    private KafkaBroker broker;
    private String topic;

    private SourceBenchmark(int rounds, int rows, Path out) {
        this.rounds = rounds;
        this.rows = rows;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        int rounds = 4;
        int rows = 1_000_000;
        Path out = Path.of("bench-results");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--rows" -> rows = Integer.parseInt(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        new SourceBenchmark(rounds, rows, out).run();
    }

    /** One timed read: rows, wall seconds, process CPU nanoseconds per row, and the parity checksum. */
    private record Run(String variant, int round, long rows, double seconds, double cpuNanosPerRow, long checksum) {
        double rowsPerSecond() {
            return rows / seconds;
        }
    }

    private void run() throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        try (KafkaBroker started = KafkaBroker.start()) {
            broker = started;
            topic = "source-bench";
            broker.createTopic(topic, PARTITIONS);
            long expectedChecksum = produceBids();
            Run source = source(-1);
            Run flink = flink(-1);
            boolean pass = source.rows() == rows && flink.rows() == rows && source.checksum() == expectedChecksum
                    && flink.checksum() == expectedChecksum;
            String parity = (pass ? "PASS" : "FAIL") + String.format(Locale.ROOT,
                    ": rows source %,d / flink %,d of %,d; auction+price sums %d / %d, written %d", source.rows(),
                    flink.rows(), rows, source.checksum(), flink.checksum(), expectedChecksum);
            List<Run> runs = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                boolean sourceFirst = round % 2 == 0;
                for (int i = 0; i < 2; i++) {
                    runs.add(sourceFirst == (i == 0) ? source(round) : flink(round));
                }
            }
            report(stamp, parity, runs, loadBefore);
        }
    }

    /** Writes the Bid rows as Flink's JSON serializer makes them; returns the sum of auction and price written. */
    private long produceBids() throws Exception {
        BidGenerator bids = new BidGenerator(42);
        SerializationSchema<RowData> json = FlinkJson.openSerializer(BidGenerator.BID_TYPE);
        long checksum = 0;
        List<ProducerRecord<byte[], byte[]>> chunk = new ArrayList<>();
        for (long i = 0; i < rows; i++) {
            RowData row = bids.row(i);
            checksum += row.getLong(0) + row.getLong(2);
            chunk.add(new ProducerRecord<>(topic, (int) (i % PARTITIONS), null, json.serialize(row)));
            if (chunk.size() == 50_000 || i + 1 == rows) {
                broker.produce(chunk, Map.of("batch.size", "262144", "linger.ms", "5"));
                chunk.clear();
            }
        }
        return checksum;
    }

    private List<TopicPartition> partitions() {
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        return partitions;
    }

    private Run source(int round) {
        ArrowKafkaSourceConfig.Builder config = ArrowKafkaSourceConfig.builder()
                .bootstrapServers(broker.bootstrapServers())
                .partitions(partitions())
                .rowType(BidGenerator.BID_TYPE)
                .valueFormat("json", Map.of())
                .startFromEarliest()
                .stopAtLatest()
                .maxBatchRows(4096);
        CONSUMER.forEach(config::consumerProperty);
        long read = 0;
        long checksum = 0;
        long cpu = ClientBenchmark.processCpuNanos();
        long start = System.nanoTime();
        try (BufferAllocator allocator = new RootAllocator();
                ArrowKafkaSource source = new ArrowKafkaSource(config.build(), allocator)) {
            source.open();
            while (!source.endOfInput()) {
                for (ArrowKafkaBatch batch : source.poll(Duration.ofSeconds(1))) {
                    try (batch) {
                        BigIntVector auction = (BigIntVector) batch.root().getVector(0);
                        BigIntVector price = (BigIntVector) batch.root().getVector(2);
                        for (int i = 0; i < batch.rowCount(); i++) {
                            checksum += auction.get(i) + price.get(i);
                        }
                        read += batch.rowCount();
                    }
                }
            }
        }
        return measured("source", round, read, start, cpu, checksum);
    }

    private Run flink(int round) throws Exception {
        JsonParserRowDataDeserializationSchema json = new JsonParserRowDataDeserializationSchema(BidGenerator.BID_TYPE,
                InternalTypeInfo.of(BidGenerator.BID_TYPE), false, false, TimestampFormat.SQL);
        json.open(null); // open() only builds the ObjectMapper; it does not read the context
        Map<String, Object> properties = new HashMap<>(CONSUMER);
        properties.put("bootstrap.servers", broker.bootstrapServers());
        properties.put("isolation.level", "read_committed"); // as the source's default
        long read = 0;
        long checksum = 0;
        long cpu = ClientBenchmark.processCpuNanos();
        long start = System.nanoTime();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = partitions();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofSeconds(1))) {
                    RowData row = json.deserialize(record.value());
                    checksum += row.getLong(0) + row.getLong(2);
                    read++;
                }
            }
        }
        return measured("flink", round, read, start, cpu, checksum);
    }

    private static Run measured(String variant, int round, long read, long start, long cpu, long checksum) {
        double seconds = (System.nanoTime() - start) / 1e9;
        Run run = new Run(variant, round, read, seconds, (double) (ClientBenchmark.processCpuNanos() - cpu) / Math.max(1, read), checksum);
        System.out.printf(Locale.ROOT, "%-6s round %2d: %,.0f rows/s, %.2f µs CPU/row%n", variant, round,
                run.rowsPerSecond(), run.cpuNanosPerRow() / 1000);
        return run;
    }

    private void report(String stamp, String parity, List<Run> runs, double loadBefore) throws Exception {
        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        StringBuilder csv = new StringBuilder("variant,round,rows,seconds,rows_per_second,cpu_us_per_row\n");
        for (Run run : runs) {
            csv.append(String.format(Locale.ROOT, "%s,%d,%d,%.3f,%.0f,%.3f%n", run.variant(), run.round(), run.rows(),
                    run.seconds(), run.rowsPerSecond(), run.cpuNanosPerRow() / 1000));
        }
        List<Double> ratios = new ArrayList<>();
        List<Double> cpuRatios = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        for (int round = 0; round < rounds; round++) {
            Run source = find(runs, "source", round);
            Run flink = find(runs, "flink", round);
            double ratio = source.rowsPerSecond() / flink.rowsPerSecond();
            ratios.add(ratio);
            cpuRatios.add(source.cpuNanosPerRow() / flink.cpuNanosPerRow());
            table.append(String.format(Locale.ROOT, "| %d | %s | %,.0f | %,.0f | %.3f | %.2f / %.2f |%n", round,
                    round % 2 == 0 ? "source" : "flink", source.rowsPerSecond(), flink.rowsPerSecond(), ratio,
                    source.cpuNanosPerRow() / 1000, flink.cpuNanosPerRow() / 1000));
        }
        String md = String.format(Locale.ROOT, String.join("\n",
                "# ArrowKafkaSource vs KafkaConsumer + Flink's JSON deserializer (%s)",
                "",
                "One embedded broker, one topic of %d partitions holding %,d Nexmark Bid JSON records written by Flink's",
                "`JsonRowDataSerializationSchema`; each run reads the whole topic from its start in one thread. (source)",
                "`ArrowKafkaSource`, assigned partitions, `scan.bounded.mode` latest-offset, batches of <= 4096 rows;",
                "(flink) `KafkaConsumer<byte[], byte[]>` + Flink's `JsonParserRowDataDeserializationSchema` (the json",
                "format's default decode path) on each value. Both: max.poll.records 4096, read_committed. Each run sums",
                "auction + price of every row read. CPU is the benchmark JVM's process CPU per row (the broker is another",
                "JVM).",
                "",
                "%s The same-round ratio is the measure.",
                "",
                "Parity (warm-up round, uncounted): **%s**",
                "",
                "| round | first | source rows/s | flink rows/s | source / flink | CPU µs/row source / flink |",
                "|---:|---|---:|---:|---:|---:|",
                "%s",
                "Rows/s source / flink over %d rounds: **%s**; CPU per row source / flink: %s.",
                ""), stamp, PARTITIONS, (long) rows, MachineLoad.sentence(loadBefore, loadAfter), parity, table, rounds,
                Spread.of(ratios).ratio(), Spread.of(cpuRatios).ratio());
        Files.createDirectories(out);
        String name = "client-source-" + stamp + (MachineLoad.busy(loadBefore) ? "-loaded" : "");
        Files.writeString(out.resolve(name + ".md"), md);
        Files.writeString(out.resolve(name + ".csv"), csv);
        System.out.println(md);
    }

    private static Run find(List<Run> runs, String variant, int round) {
        return runs.stream().filter(r -> r.variant().equals(variant) && r.round() == round).findFirst().orElseThrow();
    }
}
