package io.columnarkafka.format.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.arrow.ArrowLayout;
import io.columnarkafka.format.arrow.PlainValues;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * Value-for-value comparison of a columnar decoder with Flink's {@link DeserializationSchema} on the same
 * records, the decode mirror of {@link ParityCheck}. Flink deserializes each record on its own (through
 * {@code deserialize(byte[], Collector)}, so a record may give no row, one, or several); the decoder
 * decodes them all as one batch of views into padded arrays. It serves every format; the JSON decoder's
 * {@code JsonDecodeCheck} predates it. Then:
 *
 * <ul>
 *   <li>if Flink rejects any record, decoding the batch throws a {@link DecodeException} naming the first
 *       such record, and decoding each rejected record alone throws for record 0; the batch without the
 *       rejected records is then compared as below;</li>
 *   <li>the decoded rows are exactly the rows Flink returned, in order, each mapped back to its record
 *       ({@link DecodedBatch#recordOf}), with equal values read back from Arrow through Arrow's own
 *       getters ({@link PlainValues#decodedFromArrow} against {@link PlainValues#decodedFromFlink}: timestamps
 *       exact in the column's Arrow unit, Flink's digits below it dropped as the decoders document; strings as
 *       the UTF-8 bytes Flink's {@code StringData} holds);</li>
 *   <li>the allocator holds nothing after each call that threw and closes at zero.</li>
 * </ul>
 */
public final class DecoderParityCheck {
    /** Opens Flink's deserializer for a produced row type and the format's options (Flink keys, no prefix). */
    @FunctionalInterface
    public interface OracleFactory {
        DeserializationSchema<RowData> open(RowType producedType, Map<String, String> options);
    }

    /** What Flink made of one record: its rows, or the exception it threw. */
    public record Outcome(List<RowData> rows, Throwable rejection) {
        public boolean rejected() {
            return rejection != null;
        }

        /** Flink's message and those of its causes, joined, for asserting our reason against Flink's. */
        public String rejectionMessages() {
            StringBuilder b = new StringBuilder();
            for (Throwable t = rejection; t != null; t = t.getCause()) {
                b.append(t.getMessage()).append(" | ");
            }
            return b.toString();
        }
    }

    /** The comparison of one batch: Flink's outcome per record and our rejections by record. */
    public record Result(List<Outcome> outcomes, Map<Integer, DecodeException> rejections, int comparedRows) {
        public long rejectedRecords() {
            return outcomes.stream().filter(Outcome::rejected).count();
        }

        /** Records Flink accepted but turned into no row (e.g. tombstones, skipped parse errors). */
        public long recordsWithoutRows() {
            return outcomes.stream().filter(o -> !o.rejected() && o.rows().isEmpty()).count();
        }
    }

    private final String format;
    private final OracleFactory oracles;
    private final boolean oraclePerRecord;
    private final boolean inMapOrder;

    public DecoderParityCheck(String format, OracleFactory oracles) {
        this(format, oracles, false, false);
    }

    /**
     * @param oraclePerRecord deserialize each record with a new Flink deserializer, for formats whose
     *     deserializer carries state from one record to the next that the decoder deliberately does not
     *     (Avro's buffered decoder reads a record's unread bytes as the start of the next record)
     * @param inMapOrder compare maps entry by entry in order (Flink's map iteration order, as its {@code
     *     keyArray()} gives it), for decoders that reproduce it; otherwise maps are compared sorted by key
     */
    public DecoderParityCheck(String format, OracleFactory oracles, boolean oraclePerRecord, boolean inMapOrder) {
        this.format = format;
        this.oracles = oracles;
        this.oraclePerRecord = oraclePerRecord;
        this.inMapOrder = inMapOrder;
    }

    /** Decodes {@code records} (null for a null record) with Flink and with {@code Formats.decoder}; see the class doc. */
    public Result assertParity(RowType type, Map<String, String> options, List<byte[]> records) {
        DeserializationSchema<RowData> oracle = oracles.open(type, options);
        List<Outcome> outcomes = new ArrayList<>();
        for (byte[] record : records) {
            outcomes.add(deserialize(oraclePerRecord ? oracles.open(type, options) : oracle, record));
        }
        BatchDecoder decoder = Formats.decoder(format, type, options);
        assertThat(decoder.rowType()).isEqualTo(type);
        Map<Integer, DecodeException> rejections = new java.util.TreeMap<>();
        List<byte[]> accepted = new ArrayList<>();
        List<Outcome> acceptedOutcomes = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            int firstRejected = -1;
            for (int i = 0; i < records.size(); i++) {
                if (outcomes.get(i).rejected()) {
                    firstRejected = firstRejected < 0 ? i : firstRejected;
                    rejections.put(i, assertRejects(decoder, allocator, java.util.Collections.singletonList(records.get(i)), 0, type,
                            options,
                            outcomes.get(i)));
                } else {
                    accepted.add(records.get(i));
                    acceptedOutcomes.add(outcomes.get(i));
                }
            }
            if (firstRejected >= 0) {
                assertRejects(decoder, allocator, records, firstRejected, type, options, outcomes.get(firstRejected));
            }
            int compared = compare(decoder, allocator, accepted, acceptedOutcomes, type, options);
            return new Result(outcomes, rejections, compared);
        }
    }

    /** Flink's outcome for one record: its rows, or what it threw (an {@link AssertionError} is rethrown). */
    static Outcome deserialize(DeserializationSchema<RowData> oracle, byte[] record) {
        List<RowData> rows = new ArrayList<>();
        try {
            oracle.deserialize(record, new Collector<>() {
                @Override
                public void collect(RowData row) {
                    rows.add(row);
                }

                @Override
                public void close() {}
            });
            return new Outcome(rows, null);
        } catch (Exception | Error e) {
            if (e instanceof AssertionError) {
                throw (AssertionError) e;
            }
            return new Outcome(List.of(), e);
        }
    }

    private DecodeException assertRejects(BatchDecoder decoder, BufferAllocator allocator, List<byte[]> records,
            int expectedRecord, RowType type, Map<String, String> options, Outcome flink) {
        Throwable thrown = catchThrowable(() -> decoder.decode(views(records), allocator).close());
        if (!(thrown instanceof DecodeException e)) {
            throw new AssertionError(format + ": Flink rejects record " + expectedRecord + " ("
                    + text(records.get(expectedRecord)) + ") of " + type + " with " + options + ": "
                    + flink.rejectionMessages() + "\n  but the decoder " + (thrown == null ? "accepted it" : "threw " + thrown),
                    thrown);
        }
        assertThat(e.record()).as("%s with %s: the rejected record (Flink rejects %d: %s; the decoder %s: %s)", format,
                options, expectedRecord, flink.rejectionMessages(), e.getMessage(), text(records.get(e.record())))
                .isEqualTo(expectedRecord);
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory left after a rejected batch").isZero();
        return e;
    }

    private int compare(BatchDecoder decoder, BufferAllocator allocator, List<byte[]> records, List<Outcome> outcomes,
            RowType type, Map<String, String> options) {
        List<RowData> expected = new ArrayList<>();
        List<Integer> expectedRecords = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            for (RowData row : outcomes.get(i).rows()) {
                expected.add(row);
                expectedRecords.add(i);
            }
        }
        try (DecodedBatch batch = decoder.decode(views(records), allocator)) {
            assertThat(batch.recordCount()).isEqualTo(records.size());
            VectorSchemaRoot root = batch.root();
            assertThat(root.getSchema()).as("decoded layout")
                    .isEqualTo(ArrowLayout.schema(type, decoder.timestampLayout()));
            List<Integer> actualRecords = new ArrayList<>();
            for (int row = 0; row < batch.rowCount(); row++) {
                actualRecords.add(batch.recordOf(row));
            }
            if (!actualRecords.equals(expectedRecords)) {
                fail(format + ": records that yield rows differ for " + type + " with " + options
                        + "\n  Flink:   " + expectedRecords + "\n  decoder: " + actualRecords
                        + "\n  records: " + texts(records));
            }
            assertThat(root.getRowCount()).isEqualTo(expected.size());
            for (int row = 0; row < expected.size(); row++) {
                List<Object> flink = inMapOrder ? PlainValues.decodedFromFlinkInMapOrder(expected.get(row), type)
                        : PlainValues.decodedFromFlink(expected.get(row), type);
                List<Object> ours = inMapOrder ? PlainValues.decodedFromArrowInMapOrder(root, type, row)
                        : PlainValues.decodedFromArrow(root, type, row);
                if (!flink.equals(ours)) {
                    fail(format + " decode mismatch at row " + row + " (record " + expectedRecords.get(row) + ": "
                            + text(records.get(expectedRecords.get(row))) + ")\n  row type: " + type
                            + "\n  options:  " + options + "\n  Flink:    " + flink + "\n  decoder:  " + ours
                            + differences(type, flink, ours));
                }
            }
            return expected.size();
        }
    }

    /** The differing columns, with non-ASCII and control characters escaped. */
    private static String differences(RowType type, List<Object> flink, List<Object> ours) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < flink.size(); c++) {
            if (!java.util.Objects.equals(flink.get(c), ours.get(c))) {
                b.append("\n  column ").append(type.getFieldNames().get(c)).append(": Flink ")
                        .append(escape(String.valueOf(flink.get(c)))).append(" vs ").append(escape(String.valueOf(ours.get(c))));
            }
        }
        return b.toString();
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        s.chars().forEach(c -> b.append(c >= 0x20 && c < 0x7F ? String.valueOf((char) c) : String.format("\\u%04X", c)));
        return b.toString();
    }

    /**
     * The records as views into arrays with bytes before and after each record, so a decoder that reads
     * past its view or ignores the offset is caught.
     */
    public static RecordBytes views(List<byte[]> records) {
        RecordBytes bytes = new RecordBytes();
        for (int i = 0; i < records.size(); i++) {
            byte[] record = records.get(i);
            if (record == null) {
                bytes.addNull();
                continue;
            }
            int pad = 1 + i % 3;
            byte[] padded = new byte[record.length + 2 * pad];
            java.util.Arrays.fill(padded, (byte) '"');
            System.arraycopy(record, 0, padded, pad, record.length);
            bytes.add(padded, pad, record.length);
        }
        return bytes;
    }

    /** A record for messages: its text if printable UTF-8, else hex. */
    public static String text(byte[] record) {
        if (record == null) {
            return "<null record>";
        }
        String s = new String(record, java.nio.charset.StandardCharsets.UTF_8);
        if (s.length() > 400) {
            s = s.substring(0, 400) + "...";
        }
        return s.chars().allMatch(c -> c >= 0x20 && c != 0xFFFD) ? "'" + s + "'"
                : "'" + s.replace("\n", "\\n").replace("\r", "\\r") + "' (hex " + HexFormat.of().formatHex(record) + ")";
    }

    private static List<String> texts(List<byte[]> records) {
        List<String> out = new ArrayList<>();
        records.forEach(r -> out.add(text(r)));
        return out;
    }
}
