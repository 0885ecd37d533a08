package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.nexmark.OutputDigest;
import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A CDC cell's committed output reduced to what it must equal stock's by ({@link CdcQuery.Output}), as a digest:
 * every record's key and value, tagged with its partition and its place in it (so the digest's sort keeps each
 * partition's order); or each key's final value.
 */
final class CdcOutput {
    private CdcOutput() {}

    static OutputDigest digest(CdcQuery query, TopicReport report) {
        return OutputDigest.of(entries(query, report));
    }

    static List<String> entries(CdcQuery query, TopicReport report) {
        List<TopicRecord> records = report.records().stream()
                .sorted(Comparator.comparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset))
                .toList();
        List<String> entries = new ArrayList<>();
        switch (query.output) {
            case RECORDS_IN_ORDER -> {
                int partition = -1;
                int place = 0;
                for (TopicRecord r : records) {
                    place = r.partition() == partition ? place + 1 : 0;
                    partition = r.partition();
                    entries.add(String.format("p%d\t%010d\t%s\t%s", partition, place, text(r.key(), r),
                            text(r.value(), r)));
                }
            }
            case FINAL_VALUE_PER_KEY -> {
                Map<String, String> latest = new TreeMap<>();
                for (TopicRecord r : records) {
                    if (r.value() == null) {
                        latest.remove(r.keyAsString());
                    } else {
                        latest.put(r.keyAsString(), r.valueAsString());
                    }
                }
                latest.forEach((k, v) -> entries.add(k + "\t" + v));
            }
        }
        return entries;
    }

    private static String text(byte[] bytes, TopicRecord r) {
        return bytes == null ? "null" : bytes == r.key() ? r.keyAsString() : r.valueAsString();
    }
}
