package io.columnarkafka.planner.nexmark;

import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** An output topic's committed records, read as the parity tests against stock Flink compare them. */
final class CommittedRecords {
    private CommittedRecords() {}

    /** The topic's committed records, per partition in offset order. */
    static List<TopicRecord> inOffsetOrder(KafkaBroker broker, String topic) {
        return TopicVerifier.forTopic(broker, topic).readCommitted().keepRecords(true).read().records()
                .stream().sorted(Comparator.comparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset))
                .toList();
    }

    /** An upsert topic's last value per key ("null" for a tombstone), each partition read in offset order. */
    static Map<String, String> finalValuePerKey(KafkaBroker broker, String topic) {
        Map<String, String> values = new TreeMap<>();
        for (TopicRecord r : inOffsetOrder(broker, topic)) {
            values.put(r.keyAsString(), r.value() == null ? "null" : r.valueAsString());
        }
        return values;
    }
}
