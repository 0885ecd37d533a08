package io.columnarkafka.format.protobuf.parity;

import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.protobuf.ProtobufDecodeOptions;
import io.columnarkafka.format.protobuf.ProtobufFormatOptions;
import java.util.Map;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.protobuf.PbFormatConfig;
import org.apache.flink.formats.protobuf.deserialize.PbRowDataDeserializationSchema;
import org.apache.flink.formats.protobuf.serialize.PbRowDataSerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The expected bytes: Flink's own {@link PbRowDataSerializationSchema} (flink-protobuf 2.2.0, the 2.2 line's
 * release), built as {@code PbFormatFactory} builds it for a sink. {@code open} generates and compiles
 * (Janino) the row-to-message converter against the generated message class on the test classpath.
 */
public final class FlinkProtobufOracle {
    private FlinkProtobufOracle() {}

    /** The serializer of {@code rowType} with the options given by Flink's keys without the prefix. */
    public static ParityCheck.Oracle open(RowType rowType, Map<String, String> options) {
        ProtobufFormatOptions parsed = ProtobufFormatOptions.fromMap(options);
        PbFormatConfig config = new PbFormatConfig(parsed.messageClassName(), false, false,
                parsed.writeNullStringLiteral());
        PbRowDataSerializationSchema schema = new PbRowDataSerializationSchema(rowType, config);
        try {
            schema.open(null); // open() only generates the converter; it does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema::serialize;
    }

    /**
     * Flink's {@link PbRowDataDeserializationSchema} for {@code rowType}, built as {@code PbFormatFactory} builds
     * it for a scan; {@code open} generates and compiles the message-to-row converter.
     */
    public static DeserializationSchema<RowData> deserializer(RowType rowType, Map<String, String> options) {
        ProtobufDecodeOptions parsed = ProtobufDecodeOptions.fromMap(options);
        PbFormatConfig config = new PbFormatConfig(parsed.format().messageClassName(), parsed.ignoreParseErrors(),
                parsed.readDefaultValues(), parsed.format().writeNullStringLiteral());
        PbRowDataDeserializationSchema schema = new PbRowDataDeserializationSchema(rowType,
                InternalTypeInfo.of(rowType), config);
        try {
            schema.open(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return schema;
    }

    /** The decoder parity check of the {@code protobuf} format against Flink's deserializer. */
    public static DecoderParityCheck decodeCheck() {
        return new DecoderParityCheck("protobuf", FlinkProtobufOracle::deserializer);
    }

    /** The parity check of the {@code protobuf} format against this oracle. */
    public static ParityCheck check() {
        return new ParityCheck("protobuf", FlinkProtobufOracle::open);
    }
}
