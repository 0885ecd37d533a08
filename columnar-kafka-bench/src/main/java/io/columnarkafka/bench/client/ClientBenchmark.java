package io.columnarkafka.bench.client;

import io.columnarkafka.bench.MachineLoad;
import io.columnarkafka.client.ArrowKafkaSink;
import io.columnarkafka.client.ArrowKafkaSinkConfig;
import io.columnarkafka.client.DeliveryGuarantee;
import io.columnarkafka.client.SinkListener;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.nexmark.BidGenerator;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The standalone client under exactly-once against its ceiling, in the same run on one embedded broker:
 * (client) {@link ArrowKafkaSink} encoding Nexmark Bid Arrow batches to JSON, one transaction per epoch, and
 * (bare) one transactional {@link KafkaProducer} sending the same JSON values pre-built, committing after the
 * same number of records. One thread each, one writer at a time, the same producer settings.
 *
 * <p>An uncounted warm-up round of both comes first and checks parity: the client's topic must hold exactly
 * the bare producer's values (a FAIL row otherwise). Then rounds alternate which variant runs first; each
 * round's ratio client/bare is reported with the median, min and max, beside the process CPU per record (the
 * broker is another JVM, so not counted). Every run writes a fresh topic, read back {@code read_committed}.
 *
 * <p>Arguments: {@code [--rounds N] [--rows N] [--epoch-batches N] [--out DIR]}.
 */
public final class ClientBenchmark {
    private static final int BATCH_ROWS = 4096;
    private static final int POOL_BATCHES = 16;
    private static final Map<String, String> PRODUCER = Map.of(
            "batch.size", "65536", "linger.ms", "5", "compression.type", "none", "transaction.timeout.ms", "60000");

    private final int rounds;
    private final int batches;
    private final int epochBatches;
    private final Path out;
    private KafkaBroker broker;
    private int topics;

    private ClientBenchmark(int rounds, int rows, int epochBatches, Path out) {
        this.rounds = rounds;
        this.batches = Math.max(1, rows / BATCH_ROWS);
        this.epochBatches = epochBatches;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        int rounds = 4;
        int rows = 1_048_576;
        int epochBatches = 16;
        Path out = Path.of("bench-results");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--rows" -> rows = Integer.parseInt(args[i + 1]);
                case "--epoch-batches" -> epochBatches = Integer.parseInt(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        new ClientBenchmark(rounds, rows, epochBatches, out).run();
    }

    /** One timed run: records per second of wall time and process CPU nanoseconds per record. */
    private record Run(String variant, int round, long records, double seconds, double cpuNanosPerRecord) {
        double recordsPerSecond() {
            return records / seconds;
        }
    }

    private void run() throws Exception {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        try (BufferAllocator allocator = new RootAllocator();
                KafkaBroker started = KafkaBroker.builder().defaultPartitions(2).start()) {
            broker = started;
            List<VectorSchemaRoot> pool = bidBatches(allocator);
            byte[][][] prebuilt = prebuild(pool);
            try {
                String parity = warmUpAndCheckParity(pool, prebuilt);
                List<Run> runs = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    boolean clientFirst = round % 2 == 0;
                    for (int i = 0; i < 2; i++) {
                        runs.add(clientFirst == (i == 0) ? client(pool, round) : bare(prebuilt, round));
                    }
                }
                report(stamp, parity, runs, loadBefore);
            } finally {
                pool.forEach(VectorSchemaRoot::close);
            }
        }
    }

    private static List<VectorSchemaRoot> bidBatches(BufferAllocator allocator) {
        BidGenerator bids = new BidGenerator(42);
        List<VectorSchemaRoot> pool = new ArrayList<>();
        for (int b = 0; b < POOL_BATCHES; b++) {
            VectorSchemaRoot root = VectorSchemaRoot.create(ArrowLayout.schema(BidGenerator.BID_TYPE), allocator);
            bids.fill(root, (long) b * BATCH_ROWS, BATCH_ROWS);
            pool.add(root);
        }
        return pool;
    }

    /** The JSON values of every pooled batch, as the bare producer's input. */
    private static byte[][][] prebuild(List<VectorSchemaRoot> pool) {
        BatchEncoder json = Formats.encoder("json", Projection.all(BidGenerator.BID_TYPE), Map.of());
        byte[][][] values = new byte[pool.size()][][];
        for (int b = 0; b < pool.size(); b++) {
            values[b] = json.encode(pool.get(b)).drain();
        }
        return values;
    }

    private String warmUpAndCheckParity(List<VectorSchemaRoot> pool, byte[][][] prebuilt) throws Exception {
        client(pool, -1);
        bare(prebuilt, -1);
        List<byte[]> expected = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            expected.addAll(Arrays.asList(prebuilt[b % prebuilt.length]));
        }
        TopicReport report = TopicVerifier.forTopic(broker, lastClientTopic).verify(expected);
        return (report.isExactlyOnce() ? "PASS" : "FAIL") + ": " + report.verdict();
    }

    /** The topic of the last client run, for the parity check. */
    private String lastClientTopic;

    private Run client(List<VectorSchemaRoot> pool, int round) throws Exception {
        String topic = newTopic();
        lastClientTopic = topic;
        ArrowKafkaSinkConfig.Builder config = ArrowKafkaSinkConfig.builder().topic(topic)
                .bootstrapServers(broker.bootstrapServers()).valueFormat("json", Map.of())
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).transactionalIdPrefix(topic + "-client");
        PRODUCER.forEach(config::producerProperty);
        ArrowKafkaSink sink = new ArrowKafkaSink(BidGenerator.BID_TYPE, config.build(), SinkListener.NONE);
        sink.open();
        long cpu = processCpuNanos();
        long start = System.nanoTime();
        long epoch = 0;
        for (int b = 0; b < batches; b++) {
            if (b % epochBatches == 0) {
                sink.beginEpoch(epoch);
            }
            sink.writeBatch(pool.get(b % pool.size()));
            if ((b + 1) % epochBatches == 0 || b + 1 == batches) {
                sink.commitEpoch(sink.preCommit(epoch++));
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long cpuUsed = processCpuNanos() - cpu;
        sink.close();
        return verified(new Run("client", round, (long) batches * BATCH_ROWS, seconds,
                (double) cpuUsed / ((long) batches * BATCH_ROWS)), topic);
    }

    private Run bare(byte[][][] prebuilt, int round) throws Exception {
        String topic = newTopic();
        Properties properties = new Properties();
        properties.putAll(PRODUCER);
        properties.put("bootstrap.servers", broker.bootstrapServers());
        properties.put("transactional.id", topic + "-bare");
        long cpu;
        long start;
        double seconds;
        long cpuUsed;
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            cpu = processCpuNanos();
            start = System.nanoTime();
            for (int b = 0; b < batches; b++) {
                if (b % epochBatches == 0) {
                    producer.beginTransaction();
                }
                for (byte[] value : prebuilt[b % prebuilt.length]) {
                    producer.send(new ProducerRecord<>(topic, null, null, null, value));
                }
                if ((b + 1) % epochBatches == 0 || b + 1 == batches) {
                    producer.flush();
                    producer.commitTransaction();
                }
            }
            seconds = (System.nanoTime() - start) / 1e9;
            cpuUsed = processCpuNanos() - cpu;
        }
        return verified(new Run("bare", round, (long) batches * BATCH_ROWS, seconds,
                (double) cpuUsed / ((long) batches * BATCH_ROWS)), topic);
    }

    private Run verified(Run run, String topic) {
        long found = TopicVerifier.forTopic(broker, topic).read().totalRecords();
        if (found != run.records()) {
            throw new IllegalStateException(run.variant() + " round " + run.round() + ": read_committed found "
                    + found + " records of " + run.records());
        }
        System.out.printf(Locale.ROOT, "%-6s round %2d: %,.0f records/s, %.2f µs CPU/record%n", run.variant(),
                run.round(), run.recordsPerSecond(), run.cpuNanosPerRecord() / 1000);
        return run;
    }

    private String newTopic() {
        String topic = "client-bench-" + (++topics);
        broker.createTopic(topic, 2);
        return topic;
    }

    /** CPU time of this whole JVM so far (the broker is another process). */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private void report(String stamp, String parity, List<Run> runs, double loadBefore) throws Exception {
        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        StringBuilder csv = new StringBuilder("variant,round,records,seconds,records_per_second,cpu_us_per_record\n");
        for (Run run : runs) {
            csv.append(String.format(Locale.ROOT, "%s,%d,%d,%.3f,%.0f,%.3f%n", run.variant(), run.round(),
                    run.records(), run.seconds(), run.recordsPerSecond(), run.cpuNanosPerRecord() / 1000));
        }
        List<Double> ratios = new ArrayList<>();
        StringBuilder rows = new StringBuilder();
        for (int round = 0; round < rounds; round++) {
            Run client = find(runs, "client", round);
            Run bare = find(runs, "bare", round);
            double ratio = client.recordsPerSecond() / bare.recordsPerSecond();
            ratios.add(ratio);
            rows.append(String.format(Locale.ROOT, "| %d | %s | %,.0f | %,.0f | %.3f | %.2f / %.2f |%n", round,
                    round % 2 == 0 ? "client" : "bare", client.recordsPerSecond(), bare.recordsPerSecond(), ratio,
                    client.cpuNanosPerRecord() / 1000, bare.cpuNanosPerRecord() / 1000));
        }
        List<Double> sorted = new ArrayList<>(ratios);
        sorted.sort(null);
        double median = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        String md = String.format(Locale.ROOT, String.join("\n",
                "# Standalone client vs bare transactional producer (%s)",
                "",
                "One embedded broker (2 partitions), one writer thread per variant, one variant at a time. Nexmark Bid",
                "rows as Arrow batches of %d rows (a pool of %d batches reused), %,d records per run, a transaction",
                "every %d batches (%,d records), producer batch.size 65536, linger.ms 5, no compression.",
                "(client) `ArrowKafkaSink` EXACTLY_ONCE encoding JSON per batch; (bare) `KafkaProducer` sending the",
                "same JSON values pre-built. CPU is the benchmark JVM's process CPU per record (the broker is another",
                "JVM). Every run read back read_committed with the expected record count.",
                "",
                "%s The same-round ratio is the measure.",
                "",
                "Parity (warm-up round, uncounted): client topic == bare values: **%s**",
                "",
                "| round | first | client records/s | bare records/s | client / bare | CPU µs/record client / bare |",
                "|---:|---|---:|---:|---:|---:|",
                "%s",
                "Ratio client / bare over %d rounds: **median %.3f** (min %.3f, max %.3f); target >= 0.90.",
                ""), stamp, BATCH_ROWS, POOL_BATCHES, (long) batches * BATCH_ROWS, epochBatches,
                (long) epochBatches * BATCH_ROWS, MachineLoad.sentence(loadBefore, loadAfter), parity, rows, rounds, median,
                sorted.get(0), sorted.get(sorted.size() - 1));
        Files.createDirectories(out);
        Files.writeString(out.resolve("client-" + stamp + ".md"), md);
        Files.writeString(out.resolve("client-" + stamp + ".csv"), csv);
        System.out.println(md);
    }

    private static Run find(List<Run> runs, String variant, int round) {
        return runs.stream().filter(r -> r.variant().equals(variant) && r.round() == round).findFirst().orElseThrow();
    }
}
