package io.columnarkafka.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One real broker for the class; every test uses its own topic and transactional id. */
class KafkaBrokerTest {

    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        long start = System.nanoTime();
        broker = KafkaBroker.builder()
                .defaultPartitions(3)
                .transactionMaxTimeout(Duration.ofMinutes(5))
                .start();
        System.out.printf("broker %s ready in %d ms (child JVM launch to ready: %d ms)%n", broker,
                (System.nanoTime() - start) / 1_000_000, broker.startupTime().toMillis());
    }

    @AfterAll
    static void closeBrokerAndCheckCleanup() {
        ProcessHandle child = broker.process();
        Path workDir = broker.workDir();
        assertThat(child.isAlive()).isTrue();
        assertThat(workDir).isDirectory();
        long start = System.nanoTime();
        broker.close();
        System.out.printf("broker closed in %d ms%n", (System.nanoTime() - start) / 1_000_000);
        assertThat(child.isAlive()).as("broker child JVM alive after close").isFalse();
        assertThat(broker.isRunning()).isFalse();
        assertThat(workDir).as("broker work dir after close").doesNotExist();
        broker.close(); // idempotent
        assertThatThrownBy(() -> broker.createTopic("after-close")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void brokerIsReadyWithItsFilesInTheWorkDir() {
        assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:" + broker.port());
        assertThat(broker.controllerPort()).isNotEqualTo(broker.port());
        assertThat(broker.dataDir().resolve("meta.properties")).isRegularFile();
        assertThat(broker.workDir().resolve("server.properties")).content()
                .contains("transaction.max.timeout.ms=300000", "num.partitions=3",
                        "transaction.state.log.replication.factor=1");
        assertThat(broker.brokerLogFile()).isRegularFile();
        assertThat(broker.logTail(20)).contains("Kafka Server started");

        broker.createTopic("default-partitions");
        assertThat(TopicVerifier.forTopic(broker, "default-partitions").read().recordsPerPartition())
                .containsOnlyKeys(0, 1, 2);
        assertThatThrownBy(() -> broker.createTopic("default-partitions"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already exists");
        assertThatThrownBy(() -> TopicVerifier.forTopic(broker, "no-such-topic").timeout(Duration.ofSeconds(5)).read())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("does not exist");
    }

    @Test
    void readCommittedSeesExactlyTheCommittedRecordsWithDuplicateAndMissingAccounting() {
        String topic = "accounting";
        broker.createTopic(topic, 3);
        List<byte[]> committed = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = transactionalProducer("testkit-accounting")) {
            producer.initTransactions();

            producer.beginTransaction();
            for (int i = 0; i < 100; i++) {
                committed.add(send(producer, topic, "v" + i));
            }
            producer.commitTransaction();

            producer.beginTransaction();
            for (int i = 0; i < 50; i++) {
                send(producer, topic, "a" + i);
            }
            producer.flush(); // the aborted records really are in the log
            producer.abortTransaction();

            producer.beginTransaction();
            for (int i = 100; i < 200; i++) {
                committed.add(send(producer, topic, "v" + i));
            }
            committed.add(send(producer, topic, "v5")); // a duplicate on purpose
            producer.commitTransaction();
        }

        // Expected: v0..v199 once each, plus v200, which was never written.
        List<byte[]> expected = LongStream.range(0, 201).mapToObj(i -> utf8("v" + i)).collect(Collectors.toList());
        TopicReport report = TopicVerifier.forTopic(broker, topic).verify(expected);
        System.out.println(report.verdict());
        assertThat(report.totalRecords()).isEqualTo(201);
        assertThat(report.recordsPerPartition()).containsOnlyKeys(0, 1, 2);
        assertThat(report.recordsPerPartition().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(201);
        assertThat(report.expectedCount()).isEqualTo(201);
        assertThat(report.seenCount()).isEqualTo(201);
        assertThat(report.duplicateCount()).isEqualTo(1);
        assertThat(report.duplicates()).containsExactly(entry(Bytes.wrap(utf8("v5")), 2L));
        assertThat(report.missingCount()).isEqualTo(1);
        assertThat(report.missing()).containsExactly(Bytes.wrap(utf8("v200")));
        assertThat(report.unexpectedCount()).isZero();
        assertThat(report.isExactlyOnce()).isFalse();
        assertThat(report.verdict()).startsWith("FAIL: 201 records (201 expected), 1 duplicates, 1 missing, 0 unexpected")
                .contains("v5 x2", "v200");

        // The exact multiset that was committed: exactly once.
        TopicReport exact = TopicVerifier.forTopic(broker, topic).verify(committed);
        assertThat(exact.isExactlyOnce()).as(exact.verdict()).isTrue();
        assertThat(exact.verdict()).startsWith("OK: 201 records, 0 duplicates, 0 missing, 0 unexpected");

        // read_uncommitted also sees the 50 aborted records.
        TopicReport uncommitted = TopicVerifier.forTopic(broker, topic).readUncommitted().verify(committed);
        System.out.println(uncommitted.verdict());
        assertThat(uncommitted.totalRecords()).isEqualTo(251);
        assertThat(uncommitted.unexpectedCount()).isEqualTo(50);
        assertThat(uncommitted.unexpected()).hasSize(50).containsEntry(Bytes.wrap(utf8("a0")), 1L);
        assertThat(uncommitted.duplicateCount()).isZero();
        assertThat(uncommitted.missingCount()).isZero();
        assertThat(uncommitted.isExactlyOnce()).isFalse();

        // Identity extractor: value "v<n>" -> Long n.
        TopicReport byId = TopicVerifier.forTopic(broker, topic)
                .verify(LongStream.range(0, 200).boxed().collect(Collectors.toList()), KafkaBrokerTest::idOf);
        assertThat(byId.duplicates()).containsExactly(entry(5L, 2L));
        assertThat(byId.missingCount()).isZero();
        assertThat(byId.unexpectedCount()).isZero();

        // Contiguous id range, int[]-backed; 200..209 are missing.
        TopicReport byRange = TopicVerifier.forTopic(broker, topic).maxDetails(3)
                .verifyIds(0, 210, value -> idOf(value));
        assertThat(byRange.duplicates()).containsExactly(entry(5L, 2L));
        assertThat(byRange.missingCount()).isEqualTo(10);
        assertThat(byRange.missing()).containsExactly(200L, 201L, 202L);
        assertThat(byRange.expectedCount()).isEqualTo(210);
        TopicReport rangeWithUnexpected = TopicVerifier.forTopic(broker, topic).readUncommitted()
                .verifyIds(0, 200, value -> value[0] == 'a' ? -1 - idOf(value) : idOf(value));
        assertThat(rangeWithUnexpected.unexpectedCount()).isEqualTo(50);
        assertThat(rangeWithUnexpected.duplicateCount()).isEqualTo(1);

        // Uniqueness only.
        TopicReport unique = TopicVerifier.forTopic(broker, topic).verifyUnique(KafkaBrokerTest::idOf);
        assertThat(unique.duplicateCount()).isEqualTo(1);
        assertThat(unique.expectedCount()).isEqualTo(200);
        assertThat(unique.missingCount()).isZero();

        // Nothing left open for this producer.
        assertThat(report.partitionsWithOpenTransactions()).isEmpty();
        assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), "testkit-accounting",
                Duration.ofSeconds(10))).isEmpty();
        assertThat(TopicVerifier.listTransactions(broker.bootstrapServers(), "testkit-accounting"))
                .singleElement()
                .satisfies(t -> assertThat(t.state()).isEqualTo(TransactionState.COMPLETE_COMMIT));
    }

    @Test
    void keepsRecordsWithKeyValueHeadersTimestampPartitionAndOffset() {
        String topic = "records";
        broker.createTopic(topic, 2);
        try (KafkaProducer<byte[], byte[]> producer = transactionalProducer("testkit-records")) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 1, 1_700_000_000_000L, utf8("k1"), utf8("value-1"),
                    List.of(new RecordHeader("h", utf8("x")), new RecordHeader("h", utf8("y")))));
            producer.send(new ProducerRecord<>(topic, 1, 1_700_000_000_001L, (byte[]) null, (byte[]) null));
            producer.send(new ProducerRecord<>(topic, 0, 1_700_000_000_002L, utf8("k0"), utf8("value-0")));
            producer.commitTransaction();
        }
        TopicReport report = TopicVerifier.forTopic(broker, topic).keepRecords(true).read();
        assertThat(report.hasExpectation()).isFalse();
        assertThat(report.verdict()).isEqualTo("3 records (topic records, read_committed, 2 partitions)");
        assertThatThrownBy(report::isExactlyOnce).isInstanceOf(IllegalStateException.class);
        assertThat(report.recordsPerPartition()).containsEntry(0, 1L).containsEntry(1, 2L);
        List<TopicRecord> records = report.records();
        assertThat(records).hasSize(3);

        TopicRecord r0 = records.get(0);
        assertThat(r0.partition()).isZero();
        assertThat(r0.offset()).isZero();
        assertThat(r0.keyAsString()).isEqualTo("k0");
        assertThat(r0.valueAsString()).isEqualTo("value-0");
        assertThat(r0.timestamp()).isEqualTo(1_700_000_000_002L);
        assertThat(r0.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
        assertThat(r0.headers()).isEmpty();

        TopicRecord r1 = records.get(1);
        assertThat(r1.partition()).isEqualTo(1);
        assertThat(r1.offset()).isZero();
        assertThat(r1.key()).isEqualTo(utf8("k1"));
        assertThat(r1.value()).isEqualTo(utf8("value-1"));
        assertThat(r1.headers()).extracting(h -> h.key() + "=" + new String(h.value(), StandardCharsets.UTF_8))
                .containsExactly("h=x", "h=y");
        assertThat(r1.lastHeader("h")).isEqualTo(utf8("y"));

        TopicRecord tombstone = records.get(2);
        assertThat(tombstone.offset()).isEqualTo(1);
        assertThat(tombstone.key()).isNull();
        assertThat(tombstone.value()).isNull();

        // Without keepRecords, no records are retained.
        assertThatThrownBy(() -> TopicVerifier.forTopic(broker, topic).read().records())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void openTransactionIsListedAndStopsReadCommittedAtTheLastStableOffset() {
        String topic = "open-txn";
        broker.createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> producer = transactionalProducer("testkit-open")) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, topic, "c0");
            send(producer, topic, "c1");
            producer.commitTransaction();

            producer.beginTransaction();
            for (int i = 0; i < 10; i++) {
                send(producer, topic, "o" + i);
            }
            producer.flush();

            assertThat(TopicVerifier.openTransactions(broker.bootstrapServers(), "testkit-open"))
                    .singleElement()
                    .satisfies(t -> {
                        assertThat(t.transactionalId()).isEqualTo("testkit-open");
                        assertThat(t.state()).isEqualTo(TransactionState.ONGOING);
                        assertThat(t.isOpen()).isTrue();
                    });
            assertThat(broker.listTransactions()).extracting(TransactionInfo::transactionalId).contains("testkit-open");

            // read_committed ends at the open transaction's first offset instead of waiting for it.
            TopicReport committed = TopicVerifier.forTopic(broker, topic).awaitStableOffsets(Duration.ofMillis(300))
                    .verify(List.of(utf8("c0"), utf8("c1")));
            assertThat(committed.isExactlyOnce()).as(committed.verdict()).isTrue();
            assertThat(committed.partitionsWithOpenTransactions()).containsExactly(0);
            assertThat(committed.verdict()).startsWith("OK: 2 records").endsWith("; open transactions on partitions [0]");
            assertThat(TopicVerifier.forTopic(broker, topic).readUncommitted().read().totalRecords()).isEqualTo(12);

            producer.abortTransaction();
        }
        // PREPARE_ABORT -> COMPLETE_ABORT completes asynchronously on the coordinator.
        assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), "testkit-", Duration.ofSeconds(10)))
                .isEmpty();
        assertThat(TopicVerifier.listTransactions(broker.bootstrapServers(), "testkit-open"))
                .singleElement()
                .satisfies(t -> assertThat(t.state()).isEqualTo(TransactionState.COMPLETE_ABORT));
        TopicReport afterAbort = TopicVerifier.forTopic(broker, topic).read();
        assertThat(afterAbort.totalRecords()).isEqualTo(2);
        assertThat(afterAbort.partitionsWithOpenTransactions()).isEmpty();
    }

    @Test
    void verifiesManyRecordsByNumericIdInAnIdRange() {
        String topic = "many";
        int count = 100_000;
        broker.createTopic(topic, 3);
        Properties p = broker.clientProperties();
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024));
        long produceStart = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (long id = 0; id < count; id++) {
                producer.send(new ProducerRecord<>(topic, ByteBuffer.allocate(16).putLong(id).putLong(~id).array()));
            }
        }
        long produceMs = (System.nanoTime() - produceStart) / 1_000_000;
        TopicReport report = TopicVerifier.forTopic(broker, topic).verifyIds(0, count, v -> ByteBuffer.wrap(v).getLong(0));
        System.out.printf("%s; produced in %d ms, verified in %d ms%n", report.verdict(), produceMs,
                report.readTime().toMillis());
        assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
        assertThat(report.verdict()).startsWith("OK: 100000 records, 0 duplicates, 0 missing, 0 unexpected");
        assertThat(report.recordsPerPartition().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(count);
    }

    private static KafkaProducer<byte[], byte[]> transactionalProducer(String transactionalId) {
        Properties p = broker.clientProperties();
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "60000");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        return new KafkaProducer<>(p);
    }

    private static byte[] send(KafkaProducer<byte[], byte[]> producer, String topic, String value) {
        byte[] bytes = utf8(value);
        producer.send(new ProducerRecord<>(topic, bytes));
        return bytes;
    }

    private static long idOf(byte[] value) {
        return Long.parseLong(new String(value, 1, value.length - 1, StandardCharsets.US_ASCII));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static <K, V> java.util.Map.Entry<K, V> entry(K key, V value) {
        return java.util.Map.entry(key, value);
    }
}
