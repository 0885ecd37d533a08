/**
 * Test kit for columnar-kafka: a real single-node KRaft Kafka broker in a child JVM ({@link
 * io.columnarkafka.testkit.KafkaBroker}) and an exactly-once checker for topics ({@link
 * io.columnarkafka.testkit.TopicVerifier}, {@link io.columnarkafka.testkit.TopicReport}).
 *
 * <pre>{@code
 * try (KafkaBroker broker = KafkaBroker.start()) {
 *     broker.createTopic("out", 4);
 *     // ... run the job with bootstrap.servers = broker.bootstrapServers() ...
 *     TopicReport report = TopicVerifier.forTopic(broker, "out").verifyIds(0, 2_000_000, v -> idOf(v));
 *     assertThat(report.isExactlyOnce()).as(report.verdict()).isTrue();
 *     assertThat(TopicVerifier.awaitNoOpenTransactions(broker.bootstrapServers(), "my-prefix", Duration.ofSeconds(10))).isEmpty();
 * }
 * }</pre>
 *
 * Depend on it at test scope; it needs no JUnit and no Docker.
 */
package io.columnarkafka.testkit;
