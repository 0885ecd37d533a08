package io.columnarkafka.bench.nexmark;

import io.columnarkafka.testkit.TopicRecord;
import io.columnarkafka.testkit.TopicReport;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a result topic held, read {@code read_committed}, reduced to a comparable digest: the sorted
 * multiset of values (append), the final value per key (upsert; a Top-N's without the columns its ORDER BY
 * leaves open on a tie), or q12's bids per bidder. Every cell of a
 * query must produce the stock cells' digest; the number of entries is kept beside it for the report.
 */
public record OutputDigest(long entries, String sha256) {
    private static final Pattern BID_COUNT = Pattern.compile("\"bidder\":(-?\\d+),\"bid_count\":(\\d+)");

    private static final ObjectMapper JSON = new ObjectMapper();

    static OutputDigest of(NexmarkQuery query, TopicReport report) {
        return of(entries(query, report));
    }

    /**
     * The entries the digest is taken of, unsorted: values, key-tab-final value (without the query's columns
     * open on a tie), or bidder-tab-bids.
     */
    static List<String> entries(NexmarkQuery query, TopicReport report) {
        List<String> lines = new ArrayList<>();
        switch (query.output) {
            case APPEND -> {
                for (TopicRecord record : report.records()) {
                    lines.add(text(record.value()));
                }
            }
            case UPSERT -> {
                Map<String, String> latest = new TreeMap<>();
                for (TopicRecord record : report.records()) {
                    if (record.value() == null) {
                        latest.remove(text(record.key()));
                    } else {
                        latest.put(text(record.key()), text(record.value()));
                    }
                }
                latest.forEach((k, v) -> lines.add(k + "\t" + without(query.openOnTie, v)));
            }
            case CLOSED_WINDOW_BIDS -> {
                Map<Long, Long> counts = new TreeMap<>();
                for (TopicRecord record : report.records()) {
                    Matcher m = BID_COUNT.matcher(text(record.value()));
                    if (!m.find()) {
                        throw new IllegalStateException("no bidder/bid_count in " + text(record.value()));
                    }
                    counts.merge(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long::sum);
                }
                counts.forEach((bidder, n) -> lines.add(bidder + "\t" + n));
            }
        }
        return lines;
    }

    /** The digest of these entries, in any order (sorts them in place). */
    public static OutputDigest of(List<String> lines) {
        lines.sort(null);
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String line : lines) {
                sha.update(line.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return new OutputDigest(lines.size(), HexFormat.of().formatHex(sha.digest()).substring(0, 16));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JSON object value without these fields. */
    static String without(List<String> fields, String value) {
        if (fields.isEmpty()) {
            return value;
        }
        try {
            ObjectNode node = (ObjectNode) JSON.readTree(value);
            node.remove(fields);
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("not a JSON object: " + value, e);
        }
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }
}
