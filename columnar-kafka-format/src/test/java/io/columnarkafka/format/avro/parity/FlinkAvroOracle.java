package io.columnarkafka.format.avro.parity;

import io.columnarkafka.format.avro.AvroFormatOptions;
import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.parity.ParityCheck;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.avro.AvroRowDataDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import java.util.Map;
import org.apache.flink.formats.avro.AvroFormatOptions.AvroEncoding;
import org.apache.flink.formats.avro.AvroRowDataSerializationSchema;
import org.apache.flink.table.types.logical.RowType;

/**
 * The expected bytes: Flink 2.2.1's own {@link AvroRowDataSerializationSchema}, built as {@code
 * AvroFormatFactory} builds it for a sink (row type, binary encoding, legacy timestamp mapping option).
 */
public final class FlinkAvroOracle {
    private FlinkAvroOracle() {}

    /** The serializer of {@code rowType} with the options given by Flink's keys without the {@code avro.} prefix. */
    public static ParityCheck.Oracle open(RowType rowType, Map<String, String> options) {
        AvroRowDataSerializationSchema schema = new AvroRowDataSerializationSchema(
                rowType, AvroEncoding.BINARY, AvroFormatOptions.fromMap(options).legacyTimestampMapping());
        try {
            schema.open(null); // open() builds the Avro writer and encoder; it does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema::serialize;
    }

    /** The parity check of the {@code avro} format against this oracle. */
    public static ParityCheck check() {
        return new ParityCheck("avro", FlinkAvroOracle::open);
    }

    /** Flink's deserializer, built as {@code AvroFormatFactory} builds it for a source. */
    public static DeserializationSchema<RowData> deserializer(RowType rowType, Map<String, String> options) {
        AvroRowDataDeserializationSchema schema = new AvroRowDataDeserializationSchema(rowType,
                InternalTypeInfo.of(rowType), AvroEncoding.BINARY,
                AvroFormatOptions.fromMap(options).legacyTimestampMapping());
        try {
            schema.open(null); // open() builds the Avro reader; it does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema;
    }

    /**
     * The parity check of the {@code avro} decoder against Flink's deserializer, a new one per record: Flink's
     * buffered Avro decoder would read the unread trailing bytes of a record as the start of the next one,
     * which the columnar decoder does not reproduce (each record is read on its own). Maps are compared in
     * order: the decoder reproduces the iteration order of the {@code HashMap} Flink's converter builds.
     */
    public static DecoderParityCheck decodeCheck() {
        return new DecoderParityCheck("avro", FlinkAvroOracle::deserializer, true, true);
    }
}
