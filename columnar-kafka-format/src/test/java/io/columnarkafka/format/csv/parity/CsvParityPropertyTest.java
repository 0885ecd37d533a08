package io.columnarkafka.format.csv.parity;

import static io.columnarkafka.format.csv.parity.FlinkCsvOracle.CSV;

import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Random batches (seeded edge values, nulls at every level) under random option combinations, each
 * byte-identical to Flink's {@code CsvRowDataSerializationSchema} (flink-csv 2.2.0; 2.2.1 was never
 * published to Maven Central).
 */
class CsvParityPropertyTest {
    /** Most batches must have rows compared byte for byte (not empty, not rejected as Flink rejects them). */
    private static final double MIN_COMPARED_PERCENT = 80;
    private static final List<RowType> TYPES = List.of(CsvParityCorpusTest.SCALARS, CsvParityCorpusTest.NESTED);
    private static final List<String> SPECIALS = List.of(",", ";", "|", "\t", "'", "\"", "\\", "*", " ", "#", "\u00e9");

    @Property(tries = 1000)
    void randomBatchesMatchFlink(@ForAll long seed) {
        Random random = new Random(seed);
        Map<String, String> options = new HashMap<>();
        if (random.nextBoolean()) {
            String delimiter = pick(random);
            // Flink's factory unescapes the field delimiter, and a lone backslash unescapes to nothing.
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
            options.put("write-bigdecimal-in-scientific-notation", Boolean.toString(random.nextBoolean()));
        }
        RowType type = TYPES.get(random.nextInt(TYPES.size()));
        RandomValues values = new RandomValues(seed, false, random.nextBoolean());
        List<RowData> rows = new ArrayList<>();
        for (int i = random.nextInt(12); i >= 0; i--) {
            rows.add(values.row(type));
        }
        int beyond = CSV.beyondArrowNanosCases();
        boolean compared = CSV.assertParity(type, rows, options);
        Statistics.label("timestamps").collect(CSV.beyondArrowNanosCases() > beyond
                ? "beyond Arrow nanoseconds, full-range layout" : "within Arrow nanoseconds");
        Statistics.label("timestamps").coverage(coverage -> coverage
                .check("beyond Arrow nanoseconds, full-range layout").percentage(share -> share >= 20));
        Statistics.label("outcome").collect(!compared ? "rejected like Flink"
                : rows.isEmpty() ? "empty batch" : "bytes compared");
        Statistics.label("outcome").coverage(coverage -> coverage.check("bytes compared")
                .percentage(share -> share >= MIN_COMPARED_PERCENT));
    }

    private static String pick(Random random) {
        return SPECIALS.get(random.nextInt(SPECIALS.size()));
    }
}
