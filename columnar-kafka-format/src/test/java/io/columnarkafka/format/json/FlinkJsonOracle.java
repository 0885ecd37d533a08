package io.columnarkafka.format.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the encoder's oracle tests: the same rows go to Flink 2.2.1's {@link
 * JsonRowDataSerializationSchema} as {@code GenericRowData} and, through {@link ArrowByHand}, into an
 * Arrow batch for {@link JsonBatchEncoder}; every record must be the same bytes. Each test's allocator
 * must end with zero outstanding bytes.
 */
abstract class FlinkJsonOracle {
    BufferAllocator allocator;

    @BeforeEach
    void openAllocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).as("outstanding Arrow bytes").isZero();
        allocator.close();
    }

    /** Flink's serializer for {@code type} under {@code options}, opened as the Kafka sink would. */
    static JsonRowDataSerializationSchema flink(RowType type, JsonFormatOptions options) throws Exception {
        JsonRowDataSerializationSchema schema = new JsonRowDataSerializationSchema(
                type,
                options.timestampFormat() == JsonFormatOptions.TimestampFormat.SQL
                        ? TimestampFormat.SQL
                        : TimestampFormat.ISO_8601,
                org.apache.flink.formats.json.JsonFormatOptions.MapNullKeyMode.valueOf(
                        options.mapNullKeyMode().name()),
                options.mapNullKeyLiteral(),
                options.decimalAsPlainNumber(),
                options.ignoreNullFields());
        // open() only builds the ObjectMapper; it does not read the context.
        schema.open(null);
        return schema;
    }

    /** A batch of {@code rows} in the ArrowLayout schema (or its Large variant) of {@code type}. */
    VectorSchemaRoot batch(RowType type, boolean large, List<GenericRowData> rows) {
        Schema schema = ArrowLayout.schema(type);
        VectorSchemaRoot root = VectorSchemaRoot.create(large ? ArrowByHand.large(schema) : schema, allocator);
        try {
            root.allocateNew();
            for (int r = 0; r < rows.size(); r++) {
                for (int f = 0; f < type.getFieldCount(); f++) {
                    Object value = RowData.createFieldGetter(type.getTypeAt(f), f).getFieldOrNull(rows.get(r));
                    ArrowByHand.set(root.getVector(f), r, type.getTypeAt(f), value);
                }
            }
            root.setRowCount(rows.size());
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    static List<GenericRowData> rows(Object[]... rows) {
        List<GenericRowData> list = new ArrayList<>();
        for (Object[] row : rows) {
            list.add(GenericRowData.of(row));
        }
        return list;
    }

    /** Encodes {@code rows} both ways and asserts identical bytes, record by record. */
    void assertSameAsFlink(String rowType, JsonFormatOptions options, boolean large, List<GenericRowData> rows)
            throws Exception {
        RowType type = RowTypes.parse(rowType);
        JsonRowDataSerializationSchema flink = flink(type, options);
        JsonBatchEncoder encoder = new JsonBatchEncoder(Projection.all(type), options);
        try (VectorSchemaRoot root = batch(type, large, rows)) {
            for (int pass = 0; pass < 2; pass++) { // the second pass reuses the slab and the writers
                RecordSlab slab = encoder.encode(root);
                assertThat(slab.recordCount()).isEqualTo(rows.size());
                for (int r = 0; r < rows.size(); r++) {
                    byte[] expected = flink.serialize(rows.get(r));
                    byte[] actual = slab.copyRecord(r);
                    assertThat(actual)
                            .as("row %d: expected %s but got %s", r,
                                    new String(expected, StandardCharsets.UTF_8),
                                    new String(actual, StandardCharsets.UTF_8))
                            .isEqualTo(expected);
                }
            }
        }
    }

    void assertSameAsFlink(String rowType, JsonFormatOptions options, List<GenericRowData> rows) throws Exception {
        assertSameAsFlink(rowType, options, false, rows);
        assertSameAsFlink(rowType, options, true, rows);
    }

    void assertSameAsFlink(String rowType, List<GenericRowData> rows) throws Exception {
        assertSameAsFlink(rowType, JsonFormatOptions.defaults(), rows);
    }

    static JsonFormatOptions options(String key, String value) {
        return JsonFormatOptions.fromMap(java.util.Map.of(key, value));
    }
}
