package io.columnarkafka.format.avro.parity;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Random row types (nested up to three levels) and random batches of edge values, each batch byte-identical
 * to Flink's Avro serializer under a random timestamp mapping. A seed replays a failing batch.
 */
class AvroParityPropertyTest {
    /** Most batches must have rows compared byte for byte (not empty, not rejected as Flink rejects them). */
    private static final double MIN_COMPARED_PERCENT = 80;
    private static final ParityCheck PARITY = FlinkAvroOracle.check();

    /** Scalars both mappings accept, and those only the modern mapping accepts (top-level fields and ROWs only). */
    private static final List<String> SCALARS = List.of("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT",
            "DOUBLE", "DECIMAL(5, 2)", "DECIMAL(18, 4)", "DECIMAL(38, 10)", "DECIMAL(38, 0)", "CHAR(3)", "STRING",
            "BYTES", "BINARY(4)", "DATE", "TIME(0)", "TIME(3)", "TIMESTAMP(0)", "TIMESTAMP(3)", "INT NOT NULL",
            "STRING NOT NULL");
    private static final List<String> MODERN_ONLY = List.of("TIMESTAMP(6)", "TIMESTAMP(4)", "TIMESTAMP_LTZ(3)",
            "TIMESTAMP_LTZ(6)", "TIMESTAMP_LTZ(0)");

    @Property(tries = 1000)
    void randomBatchesMatchFlink(@ForAll long seed) {
        Random random = new Random(seed);
        boolean legacy = random.nextBoolean();
        RowType type = RowTypes.parse(rowType(random, 3, !legacy, true));
        RandomValues values = new RandomValues(seed, false);
        int rows = random.nextInt(20);
        List<RowData> batch = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            batch.add(values.row(type));
        }
        boolean compared =
                PARITY.assertParity(type, batch, Map.of("timestamp_mapping.legacy", Boolean.toString(legacy)));
        Statistics.label("outcome").collect(!compared ? "rejected like Flink"
                : batch.isEmpty() ? "empty batch" : "bytes compared");
        Statistics.label("outcome").coverage(coverage -> coverage.check("bytes compared")
                .percentage(share -> share >= MIN_COMPARED_PERCENT));
    }

    /** {@code modern}: the timestamp types only the modern mapping accepts may appear (not under arrays or maps). */
    static String rowType(Random random, int depth, boolean modern, boolean top) {
        int fields = 1 + random.nextInt(top ? 6 : 3);
        StringBuilder row = new StringBuilder("ROW<");
        for (int f = 0; f < fields; f++) {
            row.append(f == 0 ? "" : ", ").append("f").append(f).append(' ').append(type(random, depth, modern));
        }
        row.append('>');
        if (top && random.nextInt(4) == 0) {
            row.append(" NOT NULL");
        }
        return row.toString();
    }

    static String type(Random random, int depth, boolean modern) {
        int pick = random.nextInt(depth > 0 ? 10 : 6);
        switch (pick) {
            case 6:
                return "ARRAY<" + type(random, depth - 1, false) + ">";
            case 7:
                return "MAP<" + (random.nextBoolean() ? "STRING" : "VARCHAR(4) NOT NULL") + ", "
                        + type(random, depth - 1, false) + ">";
            case 8:
                return random.nextBoolean() ? "MULTISET<STRING>" : rowType(random, depth - 1, modern, false);
            case 9:
                return rowType(random, depth - 1, modern, false);
            default:
                if (modern && random.nextInt(4) == 0) {
                    return MODERN_ONLY.get(random.nextInt(MODERN_ONLY.size()));
                }
                return SCALARS.get(random.nextInt(SCALARS.size()));
        }
    }
}
