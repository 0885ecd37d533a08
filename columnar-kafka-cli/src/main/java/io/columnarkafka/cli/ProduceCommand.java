package io.columnarkafka.cli;

import io.columnarkafka.client.ArrowKafkaSink;
import io.columnarkafka.client.ArrowKafkaSinkConfig;
import io.columnarkafka.client.ConfigProblem;
import io.columnarkafka.client.DeliveryGuarantee;
import io.columnarkafka.client.SinkListener;
import io.columnarkafka.client.WriteResult;
import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code columnar-kafka produce}: sends an Arrow IPC file to a topic through the standalone client ({@link
 * ArrowKafkaSink}, no Flink), then reads the topic back {@code read_committed} and compares it with the values
 * the format's encoder makes of the same batches: records, duplicates, missing.
 */
final class ProduceCommand {
    static final String USAGE = String.join("\n",
            "usage: columnar-kafka produce --row-type '<Flink ROW type>' --format json [--option json.KEY=VALUE ...]",
            "                              --input FILE|- [--topic NAME] [--partitions N]",
            "                              [--delivery-guarantee exactly-once|at-least-once|none]",
            "                              [--batches-per-epoch N] [--bootstrap-servers HOST:PORT]",
            "",
            "  --row-type             the batch's Flink row type, e.g. 'ROW<id BIGINT, name STRING>'",
            "  --format               the value format: " + Formats.supported(),
            "  --option               a format option with Flink's key, e.g. json.encode.ignore-null-fields=true",
            "  --input                an Arrow IPC file (file or stream format, detected); - reads a stream from stdin",
            "  --topic                the topic (default columnar-kafka-produce-<time>); created if missing",
            "  --partitions           partitions of a topic this command creates (default 1)",
            "  --delivery-guarantee   exactly-once (default), at-least-once or none",
            "  --batches-per-epoch    batches per transaction (exactly-once) or per flush (default 16)",
            "  --bootstrap-servers    use this Kafka cluster instead of starting an embedded broker",
            "",
            "Afterwards the topic is read back read_committed and compared with the encoder's values of the",
            "same batches (kept in memory): the command exits 0 only if every record is there exactly once",
            "(at least once for at-least-once and none) and the topic holds nothing else.");

    private RowType rowType;
    private String format;
    private final Map<String, String> options = new LinkedHashMap<>();
    private String input;
    private String topic = "columnar-kafka-produce-" + System.currentTimeMillis();
    private int partitions = 1;
    private DeliveryGuarantee guarantee = DeliveryGuarantee.EXACTLY_ONCE;
    private int batchesPerEpoch = 16;
    private String bootstrapServers;

    static ProduceCommand parse(List<String> args) {
        ProduceCommand produce = new ProduceCommand();
        List<String> rawOptions = new ArrayList<>();
        String rowType = null;
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            if (i + 1 >= args.size()) {
                throw new UsageException(flag + " needs a value; see --help");
            }
            String value = args.get(++i);
            switch (flag) {
                case "--row-type" -> rowType = value;
                case "--format" -> produce.format = value;
                case "--option" -> rawOptions.add(value);
                case "--input" -> produce.input = value;
                case "--topic" -> produce.topic = value;
                case "--partitions" -> produce.partitions = positive(flag, value);
                case "--batches-per-epoch" -> produce.batchesPerEpoch = positive(flag, value);
                case "--bootstrap-servers" -> produce.bootstrapServers = value;
                case "--delivery-guarantee" -> produce.guarantee = guarantee(value);
                default -> throw new UsageException("unknown argument '" + flag + "'; see --help");
            }
        }
        if (rowType == null || produce.format == null || produce.input == null) {
            throw new UsageException("--row-type, --format and --input are required; see --help");
        }
        if (!Formats.supported().contains(produce.format)) {
            throw new UsageException("format '" + produce.format + "' has no columnar encoder; supported: "
                    + Formats.supported());
        }
        String prefix = produce.format + ".";
        for (String option : rawOptions) {
            int eq = option.indexOf('=');
            if (eq < 0 || !option.startsWith(prefix)) {
                throw new UsageException("option '" + option + "' must look like " + prefix + "KEY=VALUE");
            }
            produce.options.put(option.substring(prefix.length(), eq), option.substring(eq + 1));
        }
        produce.rowType = RowTypes.parse(rowType);
        return produce;
    }

    private static int positive(String flag, String value) {
        try {
            int n = Integer.parseInt(value.replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(flag + " needs a positive number, got '" + value + "'");
    }

    private static DeliveryGuarantee guarantee(String value) {
        try {
            return DeliveryGuarantee.parse(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--delivery-guarantee is exactly-once, at-least-once or none, got '" + value + "'");
        }
    }

    /** Sends the file and verifies the topic; returns true if the verdict is OK. */
    boolean run(PrintStream out) throws Exception {
        try (KafkaTarget kafka = KafkaTarget.of(bootstrapServers, partitions, out)) {
            kafka.createTopic(topic, partitions, true);
            List<byte[]> expected = produce(kafka.servers(), out);
            return verify(kafka.servers(), expected, out);
        }
    }

    /** Writes every batch of the input; returns the values the format's encoder makes of them, for the verdict. */
    private List<byte[]> produce(String servers, PrintStream out) throws Exception {
        ArrowKafkaSinkConfig.Builder config = ArrowKafkaSinkConfig.builder().topic(topic).bootstrapServers(servers)
                .valueFormat(format, options).deliveryGuarantee(guarantee);
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            config.transactionalIdPrefix(topic + "-produce").producerProperty("transaction.timeout.ms", "60000");
        }
        ArrowKafkaSink sink = new ArrowKafkaSink(rowType, config.build(), SinkListener.NONE);
        List<ConfigProblem> problems = sink.validate();
        if (!problems.isEmpty()) {
            throw new UsageException("invalid configuration: " + problems);
        }
        BatchEncoder oracle = Formats.encoder(format, Projection.all(rowType), options);
        List<byte[]> expected = new ArrayList<>();
        out.printf("sending %s to topic %s through ArrowKafkaSink (%s, %s)%n", input, topic, guarantee.spelling(),
                sink.encoding());
        long records = 0;
        long bytes = 0;
        long epoch = 0;
        long start = System.nanoTime();
        try (BufferAllocator allocator = new RootAllocator(); ArrowReader reader = ArrowInput.open(input, allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            sink.open();
            int inEpoch = 0;
            while (reader.loadNextBatch()) {
                if (guarantee == DeliveryGuarantee.EXACTLY_ONCE && inEpoch == 0) {
                    sink.beginEpoch(epoch);
                }
                WriteResult written = sink.writeBatch(root);
                records += written.records();
                bytes += written.bytes();
                expected.addAll(List.of(oracle.encode(root).drain()));
                if (++inEpoch == batchesPerEpoch) {
                    endEpoch(sink, epoch++);
                    inEpoch = 0;
                }
            }
            if (inEpoch > 0 || guarantee != DeliveryGuarantee.EXACTLY_ONCE) {
                endEpoch(sink, epoch++);
            }
        } finally {
            sink.close();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf("sent %,d records (%,d bytes) in %.1f s: %,.0f records/s%s%n", records, bytes, seconds,
                records / seconds, guarantee == DeliveryGuarantee.EXACTLY_ONCE ? ", " + epoch + " epochs committed" : "");
        return expected;
    }

    private void endEpoch(ArrowKafkaSink sink, long epoch) {
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            sink.commitEpoch(sink.preCommit(epoch));
        } else {
            sink.flush(sink.suggestedWriteTimeout());
        }
    }

    private boolean verify(String servers, List<byte[]> expected, PrintStream out) {
        out.println("reading the topic back (read_committed) ...");
        TopicReport report = TopicVerifier.forTopic(servers, topic).readCommitted().timeout(Duration.ofMinutes(5))
                .verify(expected);
        out.printf("verifier: %d records, %d duplicates, %d missing, %d unexpected: %s%n", report.totalRecords(),
                report.duplicateCount(), report.missingCount(), report.unexpectedCount(), report.verdict());
        return guarantee == DeliveryGuarantee.EXACTLY_ONCE
                ? report.isExactlyOnce()
                : report.missingCount() == 0 && report.unexpectedCount() == 0;
    }
}
