package io.columnarkafka.format.json.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;

import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.PlainValues;
import io.columnarkafka.format.json.parity.FlinkJsonDecodeOracle.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The JSON decode parity gate: the same records through Flink's deserializer ({@link FlinkJsonDecodeOracle})
 * and through the columnar decoder, compared value by value ({@link PlainValues#decodedFromArrow} against
 * {@link PlainValues#decodedFromFlink}). Records Flink accepts are decoded together in one batch: the rows,
 * their order and the record each came from must be Flink's (a null row Flink collects is no row). A record
 * Flink rejects must make the batch fail at that record, and fail alone as record 0; so must a record Flink's
 * deserializer never returns on ({@link FlinkJsonDecodeOracle.Outcome#neverReturns()}), whatever the options,
 * saying so. Every allocator must close at zero.
 */
public final class JsonDecodeCheck {
    /** What one check compared; {@code recordsNeverReturned} of the rejected are records Flink never returns on. */
    public record Result(int rowsCompared, int recordsRejected, int nullRowsDropped, int recordsNeverReturned) {}

    private JsonDecodeCheck() {}

    public static Result assertParity(RowType type, Map<String, String> options, List<byte[]> records) {
        return assertParity(type, all(type), options, records);
    }

    /**
     * As a scan that reads only the fields {@code produced} marks: Flink's deserializer of the whole row
     * {@code type} (Flink's {@code kafka} source takes no projection) against the decoder given {@code type}
     * that produces those fields (and checks the others); Flink's rows projected must be ours, the records it
     * rejects or skips ours too, a rejection naming the record and, where Flink names the field that failed,
     * that field.
     */
    public static Result assertParity(RowType type, boolean[] produced, Map<String, String> options,
                                      List<byte[]> records) {
        return assertParity("json", type, produced, options, records,
                FlinkJsonDecodeOracle.of(type, options)::deserialize, null);
    }

    /**
     * The gate for any JSON-based format: {@code oracle} is Flink's deserializer of it; with {@code
     * kindColumn} set, the decoded rows carry that TINYINT column after {@code type}'s fields, and each must
     * hold the row kind of Flink's row ({@code RowKind.toByteValue()}).
     */
    public static Result assertParity(String format, RowType type, Map<String, String> options,
            List<byte[]> records, Function<byte[], Outcome> oracle, String kindColumn) {
        return assertParity(format, type, all(type), options, records, oracle, kindColumn);
    }

    private static boolean[] all(RowType type) {
        boolean[] all = new boolean[type.getFieldCount()];
        Arrays.fill(all, true);
        return all;
    }

    /** The gate for any JSON-based format, as a scan that reads only the fields {@code produced} marks. */
    public static Result assertParity(String format, RowType type, boolean[] produced, Map<String, String> options,
            List<byte[]> records, Function<byte[], Outcome> oracle, String kindColumn) {
        List<Outcome> outcomes = new ArrayList<>();
        for (byte[] record : records) {
            outcomes.add(oracle.apply(record));
        }
        List<String> names = new ArrayList<>();
        List<RowType.RowField> fields = new ArrayList<>();
        for (int i = 0; i < produced.length; i++) {
            if (produced[i]) {
                names.add(type.getFieldNames().get(i));
                fields.add(type.getFields().get(i));
            }
        }
        RowType producedType = new RowType(type.isNullable(), fields);
        var decoder = Formats.decoder(format, type, names, options);
        int rejected = 0;
        int neverReturned = (int) outcomes.stream().filter(Outcome::neverReturns).count();
        int firstRejected = -1;
        List<byte[]> accepted = new ArrayList<>();
        List<Integer> acceptedIndex = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            if (outcomes.get(i).rejected()) {
                rejected++;
                if (firstRejected < 0) {
                    firstRejected = i;
                }
            } else {
                accepted.add(records.get(i));
                acceptedIndex.add(i);
            }
        }
        try (BufferAllocator allocator = new RootAllocator()) {
            if (firstRejected >= 0) {
                int expected = firstRejected;
                assertThat(catchThrowable(() -> decoder.decode(batch(records), allocator).close()))
                        .as("batch with record %d rejected by Flink (%s): %s", expected,
                                outcomes.get(expected).error(), show(records.get(expected)))
                        .isInstanceOfSatisfying(DecodeException.class, e -> {
                            assertThat(e.record()).as("the record ours failed at (%s); Flink rejects record %d"
                                    + " first (%s): %s", e, expected, outcomes.get(expected).error(),
                                    show(records.get(expected))).isEqualTo(expected);
                            assertSameField(format, outcomes.get(expected).error(), e);
                        });
                assertThat(allocator.getAllocatedMemory()).as("memory after a rejected batch").isZero();
                for (int i = 0; i < records.size(); i++) {
                    if (outcomes.get(i).rejected()) {
                        byte[] record = records.get(i);
                        Throwable flink = outcomes.get(i).error();
                        boolean never = outcomes.get(i).neverReturns();
                        assertThat(catchThrowable(() -> decoder.decode(batch(List.of(record)), allocator).close()))
                                .as("record rejected by Flink (%s): %s", flink, show(record))
                                .isInstanceOfSatisfying(DecodeException.class, e -> assertThat(!never
                                        || e.reason().contains("Flink 2.2's deserializer never returns"))
                                        .as("a record Flink never returns on fails as such, even under"
                                                + " ignore-parse-errors: %s", e).isTrue());
                    }
                }
            }
            int compared = 0;
            int dropped = 0;
            try (DecodedBatch decoded = decoder.decode(batch(accepted), allocator)) {
                int row = 0;
                for (int k = 0; k < accepted.size(); k++) {
                    Outcome outcome = outcomes.get(acceptedIndex.get(k));
                    for (RowData expected : outcome.rows()) {
                        if (expected == null) {
                            dropped++;
                            continue;
                        }
                        if (row >= decoded.rowCount()) {
                            fail("Flink made more rows than %d; record %s", decoded.rowCount(), show(accepted.get(k)));
                        }
                        int ours = decoded.recordOf(row);
                        assertThat(ours).as("record of row %d: Flink's from %s, ours from %s (Flink: %s)", row,
                                show(accepted.get(k)), show(accepted.get(ours)), outcomes.get(acceptedIndex.get(ours)))
                                .isEqualTo(k);
                        assertThat(PlainValues.decodedFromArrowInMapOrder(decoded.root(), producedType, row))
                                .as("row %d of record %s (%s, producing %s)", row, show(accepted.get(k)),
                                        type.asSummaryString(), names)
                                .isEqualTo(projected(PlainValues.decodedFromFlinkInMapOrder(expected, type), produced));
                        if (kindColumn != null) {
                            assertThat(((TinyIntVector) decoded.root().getVector(kindColumn)).get(row))
                                    .as("row kind of row %d of record %s", row, show(accepted.get(k)))
                                    .isEqualTo(expected.getRowKind().toByteValue());
                        }
                        row++;
                        compared++;
                    }
                }
                if (decoded.rowCount() > row) {
                    int k = decoded.recordOf(row);
                    fail("we made more rows than Flink's %d; record %s (Flink: %s)", row, show(accepted.get(k)),
                            outcomes.get(acceptedIndex.get(k)));
                }
                assertThat(decoded.recordCount()).isEqualTo(accepted.size());
            }
            assertThat(allocator.getAllocatedMemory()).as("memory after the batch").isZero();
            return new Result(compared, rejected, dropped, neverReturned);
        }
    }

    private static List<Object> projected(List<Object> values, boolean[] produced) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < produced.length; i++) {
            if (produced[i]) {
                out.add(values.get(i));
            }
        }
        return out;
    }

    /**
     * Where Flink's error names the field that failed ("Fail to deserialize at field: f."), ours is in that field.
     * json's streaming row converter names the record's field and drops the cause, so only the outermost name is
     * there. The formats around Flink's tree deserializer (debezium-json, ogg-json, and any envelope whose rows
     * are fields of its row type) keep each row converter's cause: the envelope's fields ({@code before}, {@code
     * after}, after {@code payload} with schema-include; canal's and maxwell's {@code data}, {@code old}) come
     * first, then the fields down to the one that failed. Our errors name the envelope's field only where it is
     * the failure (not an object); otherwise the column, as a path of the physical row.
     */
    private static void assertSameField(String format, Throwable flink, DecodeException ours) {
        List<String> named = new ArrayList<>();
        for (Throwable t = flink; t != null; t = t.getCause()) {
            Matcher m = FLINK_FIELD.matcher(String.valueOf(t.getMessage()));
            if (m.find()) {
                named.add(m.group(1));
            }
        }
        if (named.isEmpty()) {
            return;
        }
        int k = 0;
        while (!format.equals("json") && k < named.size() - 1 && ENVELOPE_FIELDS.contains(named.get(k))) {
            k++;
        }
        String field = named.get(k);
        assertThat(ours.field()).as("the field of %s (Flink: %s)", ours, flink).isNotNull();
        assertThat(ours.field().equals(field) || ours.field().startsWith(field + ".")
                || ours.field().startsWith(field + "["))
                .as("our field '%s' is in Flink's '%s' (Flink: %s)", ours.field(), String.join(".", named), flink)
                .isTrue();
    }

    /** The envelope fields Flink's tree converter names above a changelog format's columns. */
    private static final Set<String> ENVELOPE_FIELDS = Set.of("payload", "before", "after", "data", "old");

    private static final Pattern FLINK_FIELD = Pattern.compile("^Fail to deserialize at field: (.*)\\.$");

    /**
     * The records as views into one array, each between bytes that would end a string, an array or an object: a
     * decoder that read past a record's bounds (its word reads are unchecked) would decode other values than Flink's.
     */
    static RecordBytes batch(List<byte[]> records) {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        int[] offsets = new int[records.size()];
        all.writeBytes(RECORD_FENCE);
        for (int i = 0; i < records.size(); i++) {
            offsets[i] = all.size();
            if (records.get(i) != null) {
                all.writeBytes(records.get(i));
            }
            all.writeBytes(RECORD_FENCE);
        }
        byte[] array = all.toByteArray();
        RecordBytes bytes = new RecordBytes();
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i) == null) {
                bytes.addNull();
            } else {
                bytes.add(array, offsets[i], records.get(i).length);
            }
        }
        return bytes;
    }

    private static final byte[] RECORD_FENCE = "1\"}]}\"1,\"".getBytes(StandardCharsets.UTF_8);

    static String show(byte[] record) {
        if (record == null) {
            return "null";
        }
        String text = new String(record, StandardCharsets.UTF_8);
        return text.length() > 300 ? text.substring(0, 300) + "... (" + record.length + " bytes)"
                : text + " [" + HexFormat.of().formatHex(record, 0, Math.min(record.length, 64)) + "]";
    }
}
