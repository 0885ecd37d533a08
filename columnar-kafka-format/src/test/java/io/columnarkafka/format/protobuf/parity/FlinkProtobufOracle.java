package io.columnarkafka.format.protobuf.parity;

import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.protobuf.ProtobufFormatOptions;
import java.util.Map;
import org.apache.flink.formats.protobuf.PbFormatConfig;
import org.apache.flink.formats.protobuf.serialize.PbRowDataSerializationSchema;
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

    /** The parity check of the {@code protobuf} format against this oracle. */
    public static ParityCheck check() {
        return new ParityCheck("protobuf", FlinkProtobufOracle::open);
    }
}
