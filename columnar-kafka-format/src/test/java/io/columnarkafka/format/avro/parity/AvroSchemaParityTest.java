package io.columnarkafka.format.avro.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.avro.AvroBatchEncoder;
import io.columnarkafka.format.avro.AvroSchemas;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The derived writer schema equals Flink's {@code AvroSchemaConverter.convertToSchema(rowType, legacy)}. */
class AvroSchemaParityTest {
    static final List<String> TYPES = List.of(
            "ROW<b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, s STRING, c CHAR(3),"
                    + " vb BYTES, bin BINARY(2), dc DECIMAL(38, 10), d5 DECIMAL(5, 0), dt DATE, t TIME(3), t0 TIME(0)>",
            "ROW<b BOOLEAN NOT NULL, i INT NOT NULL, s STRING NOT NULL, dc DECIMAL(10, 2) NOT NULL>",
            "ROW<ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts3n TIMESTAMP(3) NOT NULL>",
            "ROW<ts6 TIMESTAMP(6)>",
            "ROW<ts9 TIMESTAMP(9)>",
            "ROW<l3 TIMESTAMP_LTZ(3), l6 TIMESTAMP_LTZ(6) NOT NULL>",
            "ROW<l9 TIMESTAMP_LTZ(9)>",
            "ROW<t6 TIME(6)>",
            "ROW<r ROW<x INT, r ROW<y STRING NOT NULL>>, n ROW<a INT> NOT NULL>",
            "ROW<a ARRAY<ROW<x INT, m MAP<STRING, ROW<z DOUBLE>>>>, m MAP<STRING, ARRAY<INT NOT NULL>>>",
            "ROW<ms MULTISET<STRING>, mn MAP<STRING NOT NULL, BIGINT NOT NULL> NOT NULL, an ARRAY<STRING> NOT NULL>",
            "ROW<a ARRAY<TIMESTAMP(3)>, m MAP<STRING, TIMESTAMP(3)>>",
            "ROW<a ARRAY<TIMESTAMP(6)>>",
            "ROW<m MAP<STRING, TIMESTAMP_LTZ(3)>>",
            "ROW<a ARRAY<ROW<t TIMESTAMP(6)>>>",
            "ROW<r ROW<t TIMESTAMP(6), l TIMESTAMP_LTZ(3)>>",
            "ROW<m MAP<INT, STRING>>",
            "ROW<m MULTISET<INT>>",
            "ROW<`weird name` INT>",
            "ROW<x INT> NOT NULL");

    static Stream<Arguments> cases() {
        return TYPES.stream().flatMap(t -> Stream.of(Arguments.of(t, true), Arguments.of(t, false)));
    }

    @ParameterizedTest(name = "{0} legacy={1}")
    @MethodSource("cases")
    void derivedSchemaIsFlinks(String typeText, boolean legacy) {
        RowType type = RowTypes.parse(typeText);
        Schema flink;
        try {
            flink = AvroSchemaConverter.convertToSchema(type, legacy);
            flink.toString(); // Avro validates names lazily; Flink's encoder would fail here too
        } catch (RuntimeException flinkError) {
            assertThatThrownBy(() -> AvroSchemas.derive(type, legacy).toString())
                    .isInstanceOf(flinkError.getClass())
                    .hasMessage(flinkError.getMessage());
            assertThatThrownBy(() -> Formats.encoder("avro", Projection.all(type),
                    Map.of("timestamp_mapping.legacy", Boolean.toString(legacy))))
                    .isInstanceOf(flinkError.getClass());
            return;
        }
        Schema ours = AvroSchemas.derive(type, legacy);
        assertThat(ours.toString()).isEqualTo(flink.toString());
        assertThat(ours).isEqualTo(flink);
        AvroBatchEncoder encoder = (AvroBatchEncoder) Formats.encoder("avro", Projection.all(type),
                Map.of("timestamp_mapping.legacy", Boolean.toString(legacy)));
        assertThat(encoder.schema()).isEqualTo(flink);
    }
}
