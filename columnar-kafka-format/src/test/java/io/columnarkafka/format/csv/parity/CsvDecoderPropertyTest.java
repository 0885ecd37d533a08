package io.columnarkafka.format.csv.parity;

import static io.columnarkafka.format.csv.parity.FlinkCsvOracle.CSV_DECODE;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Random rows written by Flink's CSV serializer under random options, some records then cut short or given
 * a stray delimiter, quote, escape, line break or comment mark, decoded by Flink's deserializer and by the
 * columnar decoder: the same rows, rejections and skips.
 */
class CsvDecoderPropertyTest {
    /**
     * The corpus types with timestamps of precision 9 at precision 6: a mutated timestamp may leave the
     * 1677–2262 range of Arrow nanoseconds, which the decoder refuses while Flink accepts it (documented).
     */
    private static final List<RowType> TYPES = List.of(micros(CsvParityCorpusTest.SCALARS),
            micros(CsvParityCorpusTest.NESTED));

    private static RowType micros(RowType type) {
        return io.columnarkafka.format.RowTypes.parse(type.asSerializableString()
                .replace("TIMESTAMP(9)", "TIMESTAMP(6)").replace("TIMESTAMP_LTZ(9)", "TIMESTAMP_LTZ(6)"));
    }
    private static final List<String> SPECIALS = List.of(",", ";", "|", "\t", "'", "\"", "\\", "*", " ", "#", "\u00e9");
    private static final String NOISE = ",;|\"'\\*#\n\r \u00e9N";
    private static final AtomicLong TRIES = new AtomicLong();
    private static final AtomicLong ROWS = new AtomicLong();
    private static final AtomicLong REJECTED = new AtomicLong();
    private static final AtomicLong SKIPPED = new AtomicLong();

    @Property(tries = 400)
    void randomRecordsDecodeAsFlinkDecodesThem(@ForAll long seed) {
        Random random = new Random(seed);
        Map<String, String> options = new HashMap<>();
        if (random.nextBoolean()) {
            String delimiter = pick(random);
            options.put("field-delimiter", delimiter.equals("\\") ? "\\t" : delimiter);
        }
        if (random.nextInt(4) == 0) {
            options.put("disable-quote-character", "true");
        } else if (random.nextBoolean()) {
            options.put("quote-character", pick(random));
        }
        if (random.nextInt(3) == 0) {
            options.put("escape-character", pick(random));
        }
        if (random.nextBoolean()) {
            options.put("array-element-delimiter", pick(random));
        }
        if (random.nextBoolean()) {
            options.put("null-literal", random.nextBoolean() ? "NULL" : pick(random) + "n");
        }
        if (random.nextBoolean()) {
            options.put("ignore-parse-errors", "true");
        }
        if (random.nextInt(3) == 0) {
            options.put("allow-comments", "true");
        }
        RowType type = TYPES.get(random.nextInt(TYPES.size()));
        RandomValues values = new RandomValues(seed, false);
        List<RowData> rows = new ArrayList<>();
        for (int i = random.nextInt(12); i >= 0; i--) {
            rows.add(values.row(type));
        }
        List<byte[]> records = new ArrayList<>();
        for (byte[] record : CsvDecoderParityTest.written(type, rows, options)) {
            records.add(random.nextInt(3) == 0 ? mutate(record, random) : record);
        }
        if (random.nextInt(5) == 0) {
            records.add(null);
        }
        DecoderParityCheck.Result result = CSV_DECODE.assertParity(type, options, records);
        TRIES.incrementAndGet();
        ROWS.addAndGet(result.comparedRows());
        REJECTED.addAndGet(result.rejectedRecords());
        SKIPPED.addAndGet(result.recordsWithoutRows());
    }

    /** The record cut short, or with a character of {@link #NOISE} inserted or replacing one. */
    private static byte[] mutate(byte[] record, Random random) {
        String text = new String(record, java.nio.charset.StandardCharsets.UTF_8);
        int at = text.isEmpty() ? 0 : random.nextInt(text.length());
        char noise = NOISE.charAt(random.nextInt(NOISE.length()));
        String mutated = switch (random.nextInt(3)) {
            case 0 -> text.substring(0, at);
            case 1 -> text.substring(0, at) + noise + text.substring(at);
            default -> text.isEmpty() ? String.valueOf(noise) : text.substring(0, at) + noise + text.substring(at + 1);
        };
        return mutated.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static String pick(Random random) {
        return SPECIALS.get(random.nextInt(SPECIALS.size()));
    }

    @AfterContainer
    static void comparedEnough() {
        if (TRIES.get() > 0) {
            assertThat(ROWS.get()).as("rows compared").isGreaterThan(1000);
            assertThat(REJECTED.get()).as("records both rejected").isGreaterThan(50);
            assertThat(SKIPPED.get()).as("records both skipped or null").isGreaterThan(20);
        }
    }
}
