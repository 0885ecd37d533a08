package io.columnarkafka.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apache.kafka.common.IsolationLevel;

/**
 * What {@link TopicVerifier} read from a topic, and, when expected values were given, how it compares with them.
 *
 * <p>Comparison semantics (multisets of identities; an identity is the value bytes by content, or what the
 * caller's identity function returns):
 * <ul>
 *   <li><b>duplicate</b>: an expected identity seen more times than it was expected;
 *       {@link #duplicateCount()} counts the extra records, {@link #duplicates()} maps the identity to the
 *       number of times it was seen;</li>
 *   <li><b>missing</b>: an expected identity seen fewer times than expected; {@link #missingCount()} counts the
 *       missing records;</li>
 *   <li><b>unexpected</b>: an identity seen that was not expected at all; {@link #unexpectedCount()} counts
 *       those records (an unexpected identity seen twice counts 2 here and is not also a duplicate).</li>
 * </ul>
 * Counts are exact; {@link #duplicates()}, {@link #missing()} and {@link #unexpected()} hold at most
 * {@link TopicVerifier#maxDetails(int)} entries each. Identities of byte[] values are
 * {@link org.apache.kafka.common.utils.Bytes} (content equality); look them up with {@code Bytes.wrap(value)}.
 */
public final class TopicReport {

    private static final int SAMPLES_IN_VERDICT = 5;

    private final String topic;
    private final IsolationLevel isolationLevel;
    private final long totalRecords;
    private final Map<Integer, Long> recordsPerPartition;
    private final List<TopicRecord> records;
    private final Tally.Comparison comparison;
    private final Set<Integer> partitionsWithOpenTransactions;
    private final Duration readTime;

    TopicReport(String topic, IsolationLevel isolationLevel, long totalRecords, Map<Integer, Long> recordsPerPartition,
                List<TopicRecord> records, Tally.Comparison comparison, Set<Integer> partitionsWithOpenTransactions,
                Duration readTime) {
        this.topic = topic;
        this.isolationLevel = isolationLevel;
        this.totalRecords = totalRecords;
        this.recordsPerPartition = Collections.unmodifiableMap(new TreeMap<>(recordsPerPartition));
        this.records = records == null ? null : List.copyOf(records);
        this.comparison = comparison;
        this.partitionsWithOpenTransactions = Collections.unmodifiableSet(new TreeSet<>(partitionsWithOpenTransactions));
        this.readTime = readTime;
    }

    public String topic() {
        return topic;
    }

    public IsolationLevel isolationLevel() {
        return isolationLevel;
    }

    /** Records read, from the beginning of each partition up to the end offsets captured before reading. */
    public long totalRecords() {
        return totalRecords;
    }

    /** Records read per partition, by partition number; every partition is present, with 0 if it was empty. */
    public Map<Integer, Long> recordsPerPartition() {
        return recordsPerPartition;
    }

    /** Records read per partition, for one partition. */
    public long recordsInPartition(int partition) {
        return recordsPerPartition.getOrDefault(partition, 0L);
    }

    /** Whether the records were kept ({@link TopicVerifier#keepRecords(boolean)}). */
    public boolean hasRecords() {
        return records != null;
    }

    /**
     * The records, ordered by partition then offset.
     *
     * @throws IllegalStateException if records were not kept
     */
    public List<TopicRecord> records() {
        if (records == null) {
            throw new IllegalStateException("Records were not kept; use TopicVerifier.keepRecords(true)");
        }
        return records;
    }

    /**
     * Partitions whose last stable offset was below the high watermark when the end offsets were captured (after
     * {@link TopicVerifier#awaitStableOffsets(Duration)} for read_committed): a transaction was open there, so a
     * read_committed read did not see what follows its first record. Empty in the normal case.
     */
    public Set<Integer> partitionsWithOpenTransactions() {
        return partitionsWithOpenTransactions;
    }

    /** How long reading (and tallying) took. */
    public Duration readTime() {
        return readTime;
    }

    /** Whether expected values (or a uniqueness check) were given, so the comparison methods apply. */
    public boolean hasExpectation() {
        return comparison != null;
    }

    /** Number of expected values, counted with multiplicity. */
    public long expectedCount() {
        return comparison().expectedCount();
    }

    /** Number of records seen; same as {@link #totalRecords()}. */
    public long seenCount() {
        return totalRecords;
    }

    /** Extra records of expected identities beyond their expected multiplicity. */
    public long duplicateCount() {
        return comparison().duplicateCount();
    }

    /** Duplicated identity → times seen (a sample of at most maxDetails entries). */
    public Map<Object, Long> duplicates() {
        return comparison().duplicates();
    }

    /** Expected records not seen. */
    public long missingCount() {
        return comparison().missingCount();
    }

    /** Identities expected but seen fewer times than expected (a sample). */
    public List<Object> missing() {
        return comparison().missing();
    }

    /** Records whose identity was not expected at all. */
    public long unexpectedCount() {
        return comparison().unexpectedCount();
    }

    /** Unexpected identity → times seen (a sample). */
    public Map<Object, Long> unexpected() {
        return comparison().unexpected();
    }

    /** True when every expected value was seen exactly as often as expected and nothing else was seen. */
    public boolean isExactlyOnce() {
        Tally.Comparison c = comparison();
        return c.duplicateCount() == 0 && c.missingCount() == 0 && c.unexpectedCount() == 0;
    }

    /**
     * One line, e.g. {@code OK: 1000000 records, 0 duplicates, 0 missing, 0 unexpected (topic t, read_committed,
     * 4 partitions)} or {@code FAIL: 1001 records (1000 expected), 2 duplicates, 1 missing, 0 unexpected ...;
     * duplicates e.g. [42 x3], missing e.g. [7]}. Without an expectation: {@code 1001 records (topic t, ...)}.
     */
    public String verdict() {
        String where = "(topic " + topic + ", " + isolationLevel.toString().toLowerCase() + ", "
                + recordsPerPartition.size() + " partitions)";
        String open = partitionsWithOpenTransactions.isEmpty() ? ""
                : "; open transactions on partitions " + partitionsWithOpenTransactions;
        if (comparison == null) {
            return totalRecords + " records " + where + open;
        }
        Tally.Comparison c = comparison;
        StringBuilder s = new StringBuilder();
        boolean ok = isExactlyOnce();
        s.append(ok ? "OK: " : "FAIL: ").append(totalRecords).append(" records");
        if (!ok) {
            s.append(" (").append(c.expectedCount()).append(" expected)");
        }
        s.append(", ").append(c.duplicateCount()).append(" duplicates, ")
                .append(c.missingCount()).append(" missing, ")
                .append(c.unexpectedCount()).append(" unexpected ").append(where);
        if (!c.duplicates().isEmpty()) {
            s.append("; duplicates e.g. ").append(sample(c.duplicates()));
        }
        if (!c.missing().isEmpty()) {
            s.append("; missing e.g. ").append(c.missing().stream().limit(SAMPLES_IN_VERDICT)
                    .map(String::valueOf).collect(Collectors.joining(", ", "[", "]")));
        }
        if (!c.unexpected().isEmpty()) {
            s.append("; unexpected e.g. ").append(sample(c.unexpected()));
        }
        return s.append(open).toString();
    }

    private static String sample(Map<Object, Long> counts) {
        return counts.entrySet().stream().limit(SAMPLES_IN_VERDICT)
                .map(e -> e.getKey() + " x" + e.getValue())
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private Tally.Comparison comparison() {
        if (comparison == null) {
            throw new IllegalStateException("No expected values were given; use TopicVerifier.verify(...)");
        }
        return comparison;
    }

    /** Same as {@link #verdict()}. */
    @Override
    public String toString() {
        return verdict();
    }
}
