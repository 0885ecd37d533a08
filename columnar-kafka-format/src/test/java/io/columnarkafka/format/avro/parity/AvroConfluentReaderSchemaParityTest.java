package io.columnarkafka.format.avro.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.parity.RandomValues;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code avro-confluent} decoder with the option {@code schema} (a hand-written reader schema) value for value
 * against Flink 2.2.1's deserializer built with that option ({@link FlinkAvroConfluentOracle#deserializer(
 * TestSchemaRegistry, RowType, String)}: {@code RegistryAvroFormatFactory}'s reader schema step transcribed over
 * Flink's own {@code AvroSchemaConverter}): a reader schema of other record names, {@code [T, "null"]} unions,
 * non-null defaults, an enum, fixed bytes and a fixed decimal, an alias; records of that schema, of an older writer
 * schema (fields missing, renamed through the alias, promoted, an enum symbol the reader lacks), of writer schemas
 * Avro cannot resolve, and Flink's own serializer's; cut records; and the schemas Flink refuses.
 */
class AvroConfluentReaderSchemaParityTest {
    private static final String READER = """
            {"type": "record", "name": "Bid", "namespace": "com.example", "fields": [
              {"name": "id", "type": "long"},
              {"name": "name", "type": ["string", "null"], "default": "anon"},
              {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C"], "default": "C"}},
              {"name": "tag", "type": {"type": "fixed", "name": "Tag", "size": 4}},
              {"name": "price", "type": ["null", {"type": "fixed", "name": "Price", "size": 5,
                "logicalType": "decimal", "precision": 9, "scale": 2}], "default": null},
              {"name": "ts", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}], "default": null},
              {"name": "r", "type": ["null", {"type": "record", "name": "R", "fields": [
                {"name": "x", "type": "int", "default": 7}, {"name": "y", "type": ["null", "string"], "default": null}
              ]}], "default": null},
              {"name": "tags", "type": {"type": "array", "items": "string"}, "default": ["t1", "t2"]},
              {"name": "m", "type": {"type": "map", "values": ["long", "null"]}, "default": {"k": 5}},
              {"name": "extra", "type": "int", "default": 42},
              {"name": "note", "type": ["null", "string"], "default": null, "aliases": ["comment"]}
            ]}""";
    private static final RowType READER_TYPE = notNull("ROW<id BIGINT NOT NULL, name STRING, kind STRING NOT NULL,"
            + " tag VARBINARY(4) NOT NULL, price DECIMAL(9, 2), ts TIMESTAMP(3), r ROW<x INT NOT NULL, y STRING>,"
            + " tags ARRAY<STRING NOT NULL> NOT NULL, m MAP<STRING NOT NULL, BIGINT> NOT NULL, extra INT NOT NULL,"
            + " note STRING>");
    /** An older writer: id an int, kind with a symbol the reader lacks, note as "comment", a field since dropped. */
    private static final String OLDER = """
            {"type": "record", "name": "Bid", "namespace": "com.example", "fields": [
              {"name": "gone", "type": "double"},
              {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "D", "B"]}},
              {"name": "id", "type": "int"},
              {"name": "comment", "type": "string"},
              {"name": "tag", "type": {"type": "fixed", "name": "Tag", "size": 4}}
            ]}""";

    private static TestSchemaRegistry registry;
    private static DecoderParityCheck check;

    @BeforeAll
    static void start() throws IOException {
        registry = new TestSchemaRegistry(null);
        check = FlinkAvroConfluentOracle.decodeCheck(registry);
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    private static RowType notNull(String type) {
        return (RowType) RowTypes.parse(type).copy(false);
    }

    private static Map<String, String> options(String schema) {
        return Map.of("url", registry.url(), "schema", schema);
    }

    /** The Confluent record of {@code json} (Avro's JSON encoding) written with {@code writer}, registered. */
    private static byte[] record(String writer, String json) {
        Schema schema = new Schema.Parser().setValidateDefaults(false).parse(writer);
        int id = registry.preRegister("t-value", schema.toString());
        try {
            Object datum = new GenericDatumReader<>(schema).read(null, DecoderFactory.get().jsonDecoder(schema, json));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(0);
            out.write(ByteBuffer.allocate(4).putInt(id).array());
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<>(schema).write(datum, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<byte[]> readersOwnRecords() {
        return List.of(
                record(READER, """
                        {"id": 1, "name": {"string": "Ann"}, "kind": "A", "tag": "\\u0001\\u0002\\u0003\\u00ff",
                         "price": {"com.example.Price": "\\u0000\\u0000\\u0000\\u0030\\u0039"},
                         "ts": {"long": 1700000000123}, "r": {"com.example.R": {"x": -3, "y": {"string": "é"}}},
                         "tags": ["a", ""], "m": {"p": {"long": 1}, "q": null}, "extra": 0, "note": null}"""),
                record(READER, """
                        {"id": -9223372036854775808, "name": null, "kind": "C", "tag": "\\u0000\\u0000\\u0000\\u0000",
                         "price": {"com.example.Price": "\\u00ff\\u00ff\\u00ff\\u00ff\\u00ff"}, "ts": null, "r": null,
                         "tags": [], "m": {}, "extra": 2147483647, "note": {"string": "n"}}"""),
                // a decimal beyond DECIMAL(9, 2): Flink's converter gives null
                record(READER, """
                        {"id": 3, "name": {"string": ""}, "kind": "B", "tag": "abcd",
                         "price": {"com.example.Price": "\\u007f\\u00ff\\u00ff\\u00ff\\u00ff"}, "ts": {"long": -1},
                         "r": {"com.example.R": {"x": 0, "y": null}}, "tags": ["x"], "m": {"k": null}, "extra": -1,
                         "note": null}"""));
    }

    @Test
    void recordsOfTheReaderSchemaItself() {
        List<byte[]> records = new ArrayList<>(readersOwnRecords());
        records.add(null);
        DecoderParityCheck.Result result = check.assertParity(READER_TYPE, options(READER), records);
        assertThat(result.comparedRows()).isEqualTo(3);
        assertThat(result.rejectedRecords()).isZero();
    }

    /** Fields missing (their non-null defaults: a string, an array, a map, an int), an alias, a promotion, an enum. */
    @Test
    void anOlderWriterSchemaTakesTheReadersDefaultsAliasesAndEnumDefault() {
        List<byte[]> records = List.of(
                record(OLDER, """
                        {"gone": 1.5, "kind": "D", "id": 7, "comment": "c", "tag": "wxyz"}"""),
                record(OLDER, """
                        {"gone": -0.0, "kind": "B", "id": -2147483648, "comment": "", "tag": "\\u0000abc"}"""),
                record(OLDER, """
                        {"gone": 0.0, "kind": "A", "id": 0, "comment": "ü", "tag": "1234"}"""));
        DecoderParityCheck.Result result = check.assertParity(READER_TYPE, options(READER), records);
        assertThat(result.comparedRows()).isEqualTo(3);
    }

    /** Writer schemas Avro cannot resolve against the reader's: both reject every record. */
    @Test
    void writerSchemasAvroCannotResolveAreRejectedByBoth() {
        String body = """
                {"type": "record", "name": "Bid", "fields": [{"name": "id", "type": "long"}, %s]}""";
        List<String[]> writers = List.of(
                // a fixed of another size, an enum of another name, a string into the enum, and no default for the enum
                new String[] {body.formatted("""
                        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A"]}},
                        {"name": "tag", "type": {"type": "fixed", "name": "Tag", "size": 3}}"""),
                        """
                        {"id": 1, "kind": "A", "tag": "abc"}"""},
                new String[] {body.formatted("""
                        {"name": "kind", "type": {"type": "enum", "name": "Other", "symbols": ["A"]}},
                        {"name": "tag", "type": {"type": "fixed", "name": "Tag", "size": 4}}"""),
                        """
                        {"id": 1, "kind": "A", "tag": "abcd"}"""},
                new String[] {body.formatted("""
                        {"name": "kind", "type": "string"},
                        {"name": "tag", "type": {"type": "fixed", "name": "Tag", "size": 4}}"""),
                        """
                        {"id": 1, "kind": "A", "tag": "abcd"}"""},
                new String[] {body.formatted("""
                        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A"]}},
                        {"name": "tag", "type": "bytes"}"""),
                        """
                        {"id": 1, "kind": "A", "tag": "abcd"}"""});
        List<byte[]> records = new ArrayList<>();
        for (String[] writer : writers) {
            records.add(record(writer[0], writer[1]));
        }
        DecoderParityCheck.Result result = check.assertParity(READER_TYPE, options(READER), records);
        assertThat(result.rejectedRecords()).isEqualTo(4);
    }

    /** Every prefix of the reader's own records (the header, then inside the body): rejected, or read, by both. */
    @Test
    void cutRecords() {
        List<byte[]> records = new ArrayList<>();
        for (byte[] record : readersOwnRecords()) {
            for (int cut = 0; cut < record.length; cut++) {
                records.add(Arrays.copyOf(record, cut));
            }
        }
        DecoderParityCheck.Result result = check.assertParity(READER_TYPE, options(READER), records);
        assertThat(result.rejectedRecords()).isEqualTo(records.size());
    }

    /**
     * {@code ["int", "null"]} unions with non-null defaults over records of Flink's own serializer (its derived
     * {@code ["null", T]} writer schema, and one that lacks a field), random rows with nulls.
     */
    @Test
    void nullableUnionsOfTheOtherOrderOverFlinksOwnRecords() {
        String reader = """
                {"type": "record", "name": "X", "fields": [
                  {"name": "a", "type": ["int", "null"], "default": 1},
                  {"name": "s", "type": "string"},
                  {"name": "d", "type": ["double", "null"], "default": 0.5},
                  {"name": "l", "type": [{"type": "array", "items": ["long", "null"]}, "null"], "default": [3]}
                ]}""";
        RowType type = notNull("ROW<a INT, s STRING NOT NULL, d DOUBLE, l ARRAY<BIGINT>>");
        RandomValues random = new RandomValues(41, false);
        List<byte[]> records = new ArrayList<>();
        for (RowType writer : List.of(type, notNull("ROW<s STRING NOT NULL, a BIGINT>"))) {
            SerializationSchema<RowData> serializer = FlinkAvroConfluentOracle.serializer(registry, "t-value", writer);
            random.rows(writer, 60).forEach(row -> records.add(serializer.serialize(row)));
        }
        DecoderParityCheck.Result result = check.assertParity(type, options(reader), records);
        // the a BIGINT writer cannot become INT: its records rejected by both, but those whose a is null
        assertThat(result.comparedRows()).isGreaterThan(60);
        assertThat(result.rejectedRecords()).isGreaterThan(30);
        assertThat(result.comparedRows() + result.rejectedRecords()).isEqualTo(120);
        // the same schema under its fallback key
        Map<String, String> fallbackKey = new HashMap<>(Map.of("url", registry.url(), "schema-registry.schema", reader));
        assertThat(check.assertParity(type, fallbackKey, records.subList(0, 60)).comparedRows()).isEqualTo(60);
    }

    /** What Flink's factory refuses (its reader schema step throws), the decoder refuses at planning. */
    @Test
    void schemasFlinkRefusesAreRefusedAtPlanning() {
        String one = """
                {"type": "record", "name": "X", "fields": [{"name": "a", "type": %s}]}""";
        List<String[]> refused = List.of(
                new String[] {"ROW<a INT NOT NULL>", one.formatted("\"long\"")},
                new String[] {"ROW<b INT NOT NULL>", one.formatted("\"int\"")},
                new String[] {"ROW<a INT>", one.formatted("\"int\"")},
                new String[] {"ROW<a INT NOT NULL>", one.formatted("[\"int\", \"null\"]")},
                new String[] {"ROW<a INT>", one.formatted("[\"null\", \"int\", \"string\"]")},
                new String[] {"ROW<a VARBINARY(4) NOT NULL>", one.formatted(
                        "{\"type\": \"fixed\", \"name\": \"F\", \"size\": 5}")},
                new String[] {"ROW<a STRING>", one.formatted("[\"null\", \"string\"], \"default\": \"x\"")},
                new String[] {"ROW<a INT NOT NULL>", "{not avro"},
                new String[] {"ROW<a INT NOT NULL>", "\"int\""});
        for (String[] c : refused) {
            RowType type = notNull(c[0]);
            assertThatThrownBy(() -> FlinkAvroConfluentOracle.deserializer(registry, type, c[1]))
                    .as("Flink refuses %s for %s", c[1], c[0]).isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> Formats.decoder("avro-confluent", type, options(c[1])))
                    .as("the decoder refuses %s for %s", c[1], c[0]).isInstanceOf(IllegalArgumentException.class);
        }
        // a nullable record union is Flink's NOT NULL row too: accepted by both
        RowType type = notNull("ROW<a INT NOT NULL>");
        String nullableRecord = "[\"null\", " + one.formatted("\"int\"") + "]";
        FlinkAvroConfluentOracle.deserializer(registry, type, nullableRecord);
        assertThat(check.assertParity(type, options(nullableRecord),
                List.of(record(one.formatted("\"int\""), "{\"a\": 5}"))).comparedRows()).isEqualTo(1);
    }

    /**
     * Narrower than Flink (a fallback in SQL): a given schema Flink reads whose row type the decoder does not plan,
     * TIMESTAMP(6) from {@code timestamp-micros} (Flink reads the micros as millis; the decoder keeps the type gate
     * of the derived schema, which refuses precision 6).
     */
    @Test
    void aTimestampMicrosReaderFlinkTakesIsRefused() {
        RowType type = notNull("ROW<t TIMESTAMP(6) NOT NULL>");
        String schema = """
                {"type": "record", "name": "X", "fields": [
                  {"name": "t", "type": {"type": "long", "logicalType": "timestamp-micros"}}]}""";
        FlinkAvroConfluentOracle.deserializer(registry, type, schema);
        assertThatThrownBy(() -> Formats.decoder("avro-confluent", type, options(schema)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TIMESTAMP");
    }
}
