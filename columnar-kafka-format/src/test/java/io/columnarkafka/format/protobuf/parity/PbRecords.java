package io.columnarkafka.format.protobuf.parity;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import io.columnarkafka.format.protobuf.testmsg.Choice3;
import io.columnarkafka.format.protobuf.testmsg.Maps3;
import io.columnarkafka.format.protobuf.testmsg.Outer3;
import io.columnarkafka.format.protobuf.testmsg.Repeated3;
import io.columnarkafka.format.protobuf.testmsg.Scalars3;
import io.columnarkafka.format.protobuf.testmsg2.Proto2Messages;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** Protobuf records for the decoder tests: written by Flink's serializer, or raw wire bytes for what it never writes. */
final class PbRecords {
    static final List<Class<?>> MESSAGES = List.of(Scalars3.class, Repeated3.class, Maps3.class, Outer3.class,
            Choice3.class, Proto2Messages.Scalars2.class, Proto2Messages.Inner2.class);

    private PbRecords() {}

    /** Raw wire bytes. */
    interface Body {
        void write(CodedOutputStream out) throws IOException;
    }

    static byte[] raw(Body body) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            body.write(out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Descriptor descriptor(Class<?> message) {
        try {
            return (Descriptor) message.getMethod("getDescriptor").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, String> options(Class<?> message, boolean ignoreParseErrors, boolean readDefaultValues) {
        Map<String, String> options = new HashMap<>();
        options.put("message-class-name", message.getName());
        options.put("ignore-parse-errors", String.valueOf(ignoreParseErrors));
        options.put("read-default-values", String.valueOf(readDefaultValues));
        return options;
    }

    /** {@code count} random rows of {@code type} as Flink's serializer writes them (rows it refuses are left out). */
    static List<byte[]> written(Class<?> message, RowType type, PbRows rows, int count) {
        var serializer = FlinkProtobufOracle.open(type, Map.of("message-class-name", message.getName()));
        Descriptor descriptor = descriptor(message);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RowData row = rows.row(descriptor, type);
            try {
                records.add(serializer.serialize(row));
            } catch (RuntimeException e) {
                // a required field left null: Flink's serializer refuses the row
            }
        }
        return records;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
