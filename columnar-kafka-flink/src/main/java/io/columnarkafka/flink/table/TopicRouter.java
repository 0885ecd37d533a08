package io.columnarkafka.flink.table;

import java.io.Serializable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.table.data.RowData;

/**
 * Picks each row's topic as Flink's Kafka table sink does: the single configured topic, or else the
 * {@code topic} metadata column, checked against the topic list or pattern with Flink's exact messages.
 */
final class TopicRouter implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String single;
    /** A HashSet, like Flink's, so an error message lists the topics in the same order. */
    private final HashSet<String> topics;
    private final Pattern pattern;
    private final int topicPosition;
    private transient Map<String, Boolean> patternMatches;

    TopicRouter(List<String> topics, Pattern pattern, int topicPosition) {
        this.single = topics != null && topics.size() == 1 ? topics.get(0) : null;
        this.topics = topics == null ? null : new HashSet<>(topics);
        this.pattern = pattern;
        this.topicPosition = topicPosition;
    }

    /** The one topic of every record, or null when each row's {@code topic} column picks it. */
    String singleTopic() {
        return single;
    }

    /** The topics a record may go to, or null when a pattern decides. */
    Set<String> topics() {
        return topics;
    }

    Pattern pattern() {
        return pattern;
    }

    String topicOf(RowData row) {
        if (single != null) {
            return single;
        }
        String topic = topicPosition < 0 || row.isNullAt(topicPosition) ? null : row.getString(topicPosition).toString();
        if (topic == null) {
            throw new IllegalArgumentException(
                    "The topic of the sink record is not valid. Expected a single topic but no topic is set.");
        } else if (topics != null && !topics.contains(topic)) {
            throw new IllegalArgumentException(String.format(
                    "The topic of the sink record is not valid. Expected topic to be in: %s but was: %s",
                    topics, topic));
        } else if (pattern != null && !matches(topic)) {
            throw new IllegalArgumentException(String.format(
                    "The topic of the sink record is not valid. Expected topic to match: %s but was: %s",
                    pattern, topic));
        }
        return topic;
    }

    private boolean matches(String topic) {
        if (patternMatches == null) {
            patternMatches = new HashMap<>();
        }
        return patternMatches.computeIfAbsent(topic, t -> pattern.matcher(t).matches());
    }
}
