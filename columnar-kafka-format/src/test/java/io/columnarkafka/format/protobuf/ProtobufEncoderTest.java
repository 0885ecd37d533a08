package io.columnarkafka.format.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.BatchLayoutException;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RecordSlab;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.protobuf.testmsg.Scalars3;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** Planning errors and batch handling of the protobuf encoder (bytes: see the parity tests). */
class ProtobufEncoderTest {
    private static final Map<String, String> SCALARS3 = Map.of("message-class-name", Scalars3.class.getName());

    @Test
    void registeredAsProtobuf() {
        assertThat(Formats.supported()).contains("protobuf");
        assertThat(Formats.encoder("protobuf", Projection.all(RowTypes.parse("ROW<i32 INT>")), SCALARS3))
                .isInstanceOf(ProtobufBatchEncoder.class);
    }

    @Test
    void optionsAreCheckedWhenPlanned() {
        Projection p = Projection.all(RowTypes.parse("ROW<i32 INT>"));
        assertThatThrownBy(() -> Formats.encoder("protobuf", p, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("message-class-name");
        assertThatThrownBy(() -> Formats.encoder("protobuf", p, Map.of("message-class-name", "no.such.Message")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no.such.Message");
        assertThatThrownBy(() -> Formats.encoder("protobuf", p, Map.of("message-class-name", String.class.getName())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a generated message class");
        assertThatThrownBy(() -> Formats.encoder("protobuf", p,
                Map.of("message-class-name", Scalars3.class.getName(), "write-null-literal", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("write-null-literal");
    }

    @Test
    void columnsMustNameFieldsOfFittingTypes() {
        assertThatThrownBy(() -> Formats.encoder("protobuf", Projection.all(RowTypes.parse("ROW<nope INT>")), SCALARS3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'nope'");
        assertThatThrownBy(() -> Formats.encoder("protobuf", Projection.all(RowTypes.parse("ROW<i64 INT>")), SCALARS3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'i64'").hasMessageContaining("BIGINT");
        assertThatThrownBy(() -> Formats.encoder("protobuf",
                Projection.all(RowTypes.parse("ROW<m ROW<x STRING>>")), SCALARS3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'m.x'");
        assertThatThrownBy(() -> Formats.encoder("protobuf", Projection.all(RowTypes.parse("ROW<e DOUBLE>")), SCALARS3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'e'");
    }

    @Test
    void emptyBatchHasNoRecordsAndAMismatchedBatchIsRejected() {
        RowType type = RowTypes.parse("ROW<i32 INT, s STRING>");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator);
                RowDataArrowWriter other = new RowDataArrowWriter(RowTypes.parse("ROW<i32 BIGINT, s STRING>"), allocator)) {
            var encoder = Formats.encoder("protobuf", Projection.all(type), SCALARS3);
            RecordSlab slab = encoder.encode(writer.finish());
            assertThat(slab.recordCount()).isZero();
            assertThatThrownBy(() -> encoder.encode(other.finish())).isInstanceOf(BatchLayoutException.class);
        }
    }
}
