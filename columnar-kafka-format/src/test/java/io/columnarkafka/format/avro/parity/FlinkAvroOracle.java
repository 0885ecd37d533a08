package io.columnarkafka.format.avro.parity;

import io.columnarkafka.format.avro.AvroFormatOptions;
import io.columnarkafka.format.parity.ParityCheck;
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
}
