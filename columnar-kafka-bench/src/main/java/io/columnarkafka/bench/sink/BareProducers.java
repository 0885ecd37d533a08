package io.columnarkafka.bench.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Variant (d), the ceiling for any sink: one transactional {@link KafkaProducer} per thread, as many
 * threads as the Flink variants' parallelism, each sending its share of the rows as pre-built JSON
 * values ({@link PooledJson}, as (c)) and committing its transaction every checkpoint interval, with no Flink at all.
 */
final class BareProducers {
    /** Checks the clock once per this many records rather than per record. */
    private static final int CLOCK_STRIDE = 256;

    private BareProducers() {}

    /** Commit durations in ms of all threads, in no particular order. */
    static List<Long> run(RunSpec spec) throws Exception {
        int threads = spec.parallelism();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "bare-producer"));
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long from = spec.rows() * t / threads;
                long to = spec.rows() * (t + 1) / threads;
                int id = t;
                results.add(pool.submit(() -> produce(spec, id, from, to)));
            }
            List<Long> commits = new ArrayList<>();
            for (Future<List<Long>> result : results) {
                commits.addAll(result.get());
            }
            return commits;
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    private static List<Long> produce(RunSpec spec, int id, long from, long to) throws Exception {
        PooledJson values = new PooledJson(spec.poolRows());
        Properties props = ProducerSettings.of(spec);
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, spec.bootstrapServers());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, spec.topic() + "-bare-" + id);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        long intervalNanos = TimeUnit.MILLISECONDS.toNanos(spec.checkpointIntervalMs());
        List<Long> commitMillis = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            producer.initTransactions();
            producer.beginTransaction();
            long txStart = System.nanoTime();
            for (long i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(spec.topic(), null, null, null, values.value(i)));
                if (i % CLOCK_STRIDE == 0 && System.nanoTime() - txStart >= intervalNanos) {
                    commitMillis.add(commit(producer));
                    producer.beginTransaction();
                    txStart = System.nanoTime();
                }
            }
            commitMillis.add(commit(producer));
        }
        return commitMillis;
    }

    /** Commits (flushing what is in flight) and returns how long that took in ms. */
    private static long commit(KafkaProducer<byte[], byte[]> producer) {
        long start = System.nanoTime();
        producer.commitTransaction();
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
}
