package io.columnarkafka.format.json.parity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * The expected rows: Flink 2.2.1's default JSON deserializer, {@link JsonParserRowDataDeserializationSchema}
 * ({@code decode.json-parser.enabled=true}), called as the Kafka connector calls it: {@code
 * deserialize(byte[], Collector)}, every collected row kept (null ones included).
 *
 * <p>On some records Flink's deserializer never returns ({@link PastEndParsers}); the parser it reads through
 * counts the tokens it is asked for past the end of the input and, once Flink is certainly in such a loop,
 * fails every further request, so the run unwinds and the outcome says {@link Outcome#neverReturns()}.
 */
public final class FlinkJsonDecodeOracle {
    private final JsonParserRowDataDeserializationSchema schema;
    private final PastEndParsers parsers;

    /** What Flink made of one record: the collected rows, or the exception it threw. */
    public record Outcome(List<RowData> rows, Throwable error) {
        public boolean rejected() {
            return error != null;
        }

        /** Flink's deserializer never returns on the record: no rows, and {@link #error} says so. */
        public boolean neverReturns() {
            return error instanceof PastEndParsers.NeverReturns;
        }
    }

    private FlinkJsonDecodeOracle(JsonParserRowDataDeserializationSchema schema, PastEndParsers parsers) {
        this.schema = schema;
        this.parsers = parsers;
    }

    /** The deserializer of {@code rowType} with the options by Flink's keys without the {@code json.} prefix. */
    public static FlinkJsonDecodeOracle of(RowType rowType, Map<String, String> options) {
        PastEndParsers parsers = new PastEndParsers();
        JsonParserRowDataDeserializationSchema schema = new JsonParserRowDataDeserializationSchema(
                rowType,
                InternalTypeInfo.of(rowType),
                Boolean.parseBoolean(options.getOrDefault("fail-on-missing-field", "false")),
                Boolean.parseBoolean(options.getOrDefault("ignore-parse-errors", "false")),
                "ISO-8601".equals(options.get("timestamp-format.standard"))
                        ? TimestampFormat.ISO_8601 : TimestampFormat.SQL) {
            @Override
            public void open(InitializationContext context) throws Exception {
                super.open(context);
                objectMapper = parsers.mapperLike(objectMapper);
            }
        };
        try {
            schema.open(null); // open() only builds the ObjectMapper; it does not read the context
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new FlinkJsonDecodeOracle(schema, parsers);
    }

    public Outcome deserialize(byte[] record) {
        Outcome outcome = collect(schema, record);
        PastEndParsers.NeverReturns never = parsers.neverReturned();
        return never == null ? outcome : new Outcome(List.of(), never);
    }

    /** What {@code schema} makes of {@code record} through {@code deserialize(byte[], Collector)}. */
    static Outcome collect(DeserializationSchema<RowData> schema, byte[] record) {
        List<RowData> rows = new ArrayList<>();
        try {
            schema.deserialize(record, new Collector<>() {
                @Override
                public void collect(RowData row) {
                    rows.add(row);
                }

                @Override
                public void close() {}
            });
            return new Outcome(rows, null);
        } catch (Throwable t) {
            return new Outcome(rows, t);
        }
    }
}
