package io.columnarkafka.flink.typeutils;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Type information of a row lent to the next operator for the one call that hands it over: a view of an Arrow batch
 * that the sender moves on to the next row (or closes the batch) once the call returns. Serialized as Flink's {@link
 * RowDataSerializer} serializes any row (a binary row of the same fields and kind: across a channel the receiver
 * gets a row of its own), but {@link Serializer#copy} gives the same row: with object reuse off, Flink copies each
 * element into a chained operator ({@code CopyingChainingOutput}), which here would copy every row for a receiver
 * that reads it within the call and keeps nothing (the {@code KafkaSink} writer's serializer). Only for such a
 * receiver.
 */
public final class LentRowTypeInfo extends TypeInformation<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;

    public LentRowTypeInfo(RowType rowType) {
        this.rowType = rowType;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<RowData> getTypeClass() {
        return RowData.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<RowData> createSerializer(SerializerConfig config) {
        return new Serializer(new RowDataSerializer(rowType));
    }

    @Override
    public String toString() {
        return "LentRow" + rowType.asSummaryString();
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof LentRowTypeInfo other && rowType.equals(other.rowType);
    }

    @Override
    public int hashCode() {
        return rowType.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof LentRowTypeInfo;
    }

    /** Flink's {@link RowDataSerializer}, but a copy is the row itself. */
    public static final class Serializer extends TypeSerializer<RowData> {
        private static final long serialVersionUID = 1L;

        private final RowDataSerializer rows;

        Serializer(RowDataSerializer rows) {
            this.rows = rows;
        }

        @Override
        public boolean isImmutableType() {
            return false;
        }

        @Override
        public TypeSerializer<RowData> duplicate() {
            return new Serializer((RowDataSerializer) rows.duplicate());
        }

        @Override
        public RowData createInstance() {
            return rows.createInstance();
        }

        @Override
        public RowData copy(RowData from) {
            return from;
        }

        @Override
        public RowData copy(RowData from, RowData reuse) {
            return from;
        }

        @Override
        public int getLength() {
            return rows.getLength();
        }

        @Override
        public void serialize(RowData record, DataOutputView target) throws IOException {
            rows.serialize(record, target);
        }

        @Override
        public RowData deserialize(DataInputView source) throws IOException {
            return rows.deserialize(source);
        }

        @Override
        public RowData deserialize(RowData reuse, DataInputView source) throws IOException {
            return rows.deserialize(reuse, source);
        }

        @Override
        public void copy(DataInputView source, DataOutputView target) throws IOException {
            rows.copy(source, target);
        }

        @Override
        public boolean equals(Object obj) {
            return obj instanceof Serializer other && rows.equals(other.rows);
        }

        @Override
        public int hashCode() {
            return Objects.hash(Serializer.class, rows);
        }

        @Override
        public TypeSerializerSnapshot<RowData> snapshotConfiguration() {
            return new Snapshot(this);
        }

        /** The snapshot of a {@link Serializer}: the nested {@link RowDataSerializer}'s. */
        public static final class Snapshot extends CompositeTypeSerializerSnapshot<RowData, Serializer> {
            /** For reading a snapshot. */
            public Snapshot() {}

            Snapshot(Serializer serializer) {
                super(serializer);
            }

            @Override
            protected int getCurrentOuterSnapshotVersion() {
                return 1;
            }

            @Override
            protected TypeSerializer<?>[] getNestedSerializers(Serializer outer) {
                return new TypeSerializer<?>[] {outer.rows};
            }

            @Override
            protected Serializer createOuterSerializerWithNestedSerializers(TypeSerializer<?>[] nested) {
                return new Serializer((RowDataSerializer) nested[0]);
            }
        }
    }
}
