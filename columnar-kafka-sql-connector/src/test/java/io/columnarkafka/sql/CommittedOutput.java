package io.columnarkafka.sql;

import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicVerifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A topic's committed records as the tests compare them with stock Flink's: values, or the final value per key. */
final class CommittedOutput {
    private CommittedOutput() {}

    /** The record values, read committed. */
    static List<byte[]> values(KafkaBroker broker, String topic) {
        List<byte[]> values = new ArrayList<>();
        for (TopicRecord record : records(broker, topic)) {
            values.add(record.value());
        }
        return values;
    }

    /** An upsert topic's final value per key, read committed; a tombstone deletes its key. */
    static Map<String, String> finalValuePerKey(KafkaBroker broker, String topic) {
        Map<String, String> state = new HashMap<>();
        for (TopicRecord record : records(broker, topic)) {
            if (record.value() == null) {
                state.remove(record.keyAsString());
            } else {
                state.put(record.keyAsString(), record.valueAsString());
            }
        }
        return state;
    }

    private static List<TopicRecord> records(KafkaBroker broker, String topic) {
        return TopicVerifier.forTopic(broker, topic).readCommitted().keepRecords(true).read().records();
    }
}
