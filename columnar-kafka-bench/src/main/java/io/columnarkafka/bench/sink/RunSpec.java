package io.columnarkafka.bench.sink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;

/**
 * Everything one variant run needs, passed from the driver to the child JVM as command-line flags.
 *
 * @param pooledInput whether every variant takes its rows from a pool built once per subtask (true) or
 *     (a) and (b) generate each row as they go (false)
 * @param transactionNaming the Flink variants' KafkaSink transaction naming strategy
 * @param sqlTimestampPrecision the precision of the SQL variants' {@code dateTime} column (3 as Nexmark's;
 *     7–9 runs the sink's full-range nanosecond layout)
 * @param producer producer settings every variant uses (batch.size, linger.ms, compression.type, ...)
 * @param profile where to write a JFR recording of the job, or null for none
 * @param resultFile where the child writes its measurements (a properties file)
 */
record RunSpec(
        Variant variant,
        boolean objectReuse,
        long rows,
        int batchSize,
        boolean pooledInput,
        int parallelism,
        long checkpointIntervalMs,
        TransactionNamingStrategy transactionNaming,
        int sqlTimestampPrecision,
        String bootstrapServers,
        String topic,
        Map<String, String> producer,
        String profile,
        String resultFile) {

    /** Seed of the Nexmark Bid generator, the same for every variant. */
    static final long SEED = 42;

    /**
     * Rows in each pre-built pool (Flink rows for (a), one Arrow batch for (b), JSON values for (c) and
     * (d)): one batch, so row {@code i} is pool row {@code i % batchSize} in every variant.
     */
    int poolRows() {
        return batchSize;
    }

    /**
     * Whether row {@code i} carries generated data of its own or pool row {@code i % poolRows()}'s values
     * (with a dateTime of its own, {@link PooledIds}). The SQL variants' rows come from datagen.
     */
    boolean rowsArePooled() {
        return pooledInput || variant == Variant.PREBUILT_BYTES || variant == Variant.BARE_PRODUCER;
    }

    String label() {
        return variant.hasObjectReuseSetting() ? variant.letter() + (objectReuse ? " reuse" : " copy") : variant.letter();
    }

    List<String> toArgs() {
        List<String> args = new ArrayList<>(List.of(
                "--variant", variant.letter(),
                "--object-reuse", Boolean.toString(objectReuse),
                "--rows", Long.toString(rows),
                "--batch-size", Integer.toString(batchSize),
                "--pooled-input", Boolean.toString(pooledInput),
                "--parallelism", Integer.toString(parallelism),
                "--checkpoint-interval", Long.toString(checkpointIntervalMs),
                "--transaction-naming", transactionNaming.name(),
                "--sql-timestamp-precision", Integer.toString(sqlTimestampPrecision),
                "--bootstrap-servers", bootstrapServers,
                "--topic", topic,
                "--result", resultFile));
        producer.forEach((k, v) -> args.addAll(List.of("--producer", k + "=" + v)));
        if (profile != null) {
            args.addAll(List.of("--profile", profile));
        }
        return args;
    }

    static RunSpec fromArgs(String[] args) {
        Map<String, String> flags = new LinkedHashMap<>();
        Map<String, String> producer = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (args[i].equals("--producer")) {
                String[] kv = args[i + 1].split("=", 2);
                producer.put(kv[0], kv[1]);
            } else {
                flags.put(args[i], args[i + 1]);
            }
        }
        return new RunSpec(
                Variant.byLetter(flags.get("--variant")),
                Boolean.parseBoolean(flags.get("--object-reuse")),
                Long.parseLong(flags.get("--rows")),
                Integer.parseInt(flags.get("--batch-size")),
                Boolean.parseBoolean(flags.get("--pooled-input")),
                Integer.parseInt(flags.get("--parallelism")),
                Long.parseLong(flags.get("--checkpoint-interval")),
                TransactionNamingStrategy.valueOf(flags.get("--transaction-naming")),
                Integer.parseInt(flags.get("--sql-timestamp-precision")),
                flags.get("--bootstrap-servers"),
                flags.get("--topic"),
                producer,
                flags.get("--profile"),
                flags.get("--result"));
    }
}
