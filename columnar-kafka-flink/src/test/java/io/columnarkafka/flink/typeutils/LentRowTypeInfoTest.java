package io.columnarkafka.flink.typeutils;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class LentRowTypeInfoTest {
    private static final RowType TYPE = RowType.of(new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH));

    private final TypeSerializer<RowData> serializer =
            new LentRowTypeInfo(TYPE).createSerializer(new SerializerConfigImpl());

    /** A copy is the lent row; across a channel the row is Flink's: its bytes and kind as Flink's serializer's. */
    @Test
    void aCopyIsTheRowAndTheWireFormIsFlinks() throws Exception {
        RowData row = GenericRowData.ofKind(RowKind.UPDATE_BEFORE, 7L, StringData.fromString("\u00fc\uD83D\uDE00"));
        assertThat(serializer.copy(row)).isSameAs(row);
        assertThat(serializer.copy(row, null)).isSameAs(row);

        DataOutputSerializer ours = new DataOutputSerializer(64);
        serializer.serialize(row, ours);
        DataOutputSerializer flinks = new DataOutputSerializer(64);
        new RowDataSerializer(TYPE).serialize(row, flinks);
        assertThat(ours.getCopyOfBuffer()).isEqualTo(flinks.getCopyOfBuffer());
        RowData read = serializer.deserialize(new DataInputDeserializer(ours.getCopyOfBuffer()));
        assertThat(read.getRowKind()).isEqualTo(RowKind.UPDATE_BEFORE);
        assertThat(read.getLong(0)).isEqualTo(7L);
        assertThat(read.getString(1).toString()).isEqualTo("\u00fc\uD83D\uDE00");
    }

    @Test
    void theSnapshotRestoresTheSerializer() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer.snapshotConfiguration());
        TypeSerializerSnapshot<RowData> restored = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
        assertThat(restored.restoreSerializer()).isEqualTo(serializer);
        assertThat(serializer.snapshotConfiguration().resolveSchemaCompatibility(restored).isCompatibleAsIs())
                .isTrue();
    }
}
