package io.columnarkafka.cli;

import static io.columnarkafka.format.arrow.FlinkValues.array;
import static io.columnarkafka.format.arrow.FlinkValues.dec;
import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static io.columnarkafka.format.arrow.FlinkValues.ts;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.PlainValues;
import io.columnarkafka.format.arrow.RowDataArrowWriter;
import io.columnarkafka.format.csv.parity.FlinkCsvOracle;
import io.columnarkafka.format.protobuf.testmsg.Inner3;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import io.columnarkafka.format.avro.parity.FlinkAvroConfluentOracle;
import io.columnarkafka.format.avro.parity.TestSchemaRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the decode command as a real process, the way a user runs it: its Arrow output must hold what
 * Flink's own {@code CsvRowDataDeserializationSchema} makes of the same records, a rejected record fails it
 * with the record's index and writes nothing, and {@code encode} then {@code decode} gives the rows back.
 */
class DecodeCommandTest {
    private static final String TYPE = "ROW<id BIGINT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3),"
            + " tags ARRAY<STRING>, nested ROW<x DOUBLE, z STRING>>";
    private static final RowType ROW_TYPE = RowTypes.parse(TYPE);

    @TempDir Path dir;

    private static List<RowData> rows() {
        List<RowData> rows = new ArrayList<>();
        rows.add(row(1L, str("plain"), dec("100.00", 10, 2), ts("2024-02-29T23:59:59.120"),
                array(str("a"), str("")), row(1.5d, str("deep"))));
        rows.add(row(-3L, str("quote\" comma, emoji \uD83D\uDE00 \u00e9"), dec("-0.01", 10, 2),
                ts("1969-12-31T23:59:59.999"), array(), row(Double.NaN, str("x"))));
        rows.add(row(Long.MAX_VALUE, str("/slash"), dec("12345678.90", 10, 2), ts("9999-12-31T23:59:59.999"),
                array(str("x")), row(-0.0d, str("y"))));
        return rows;
    }

    /** Flink's CSV records of {@link #rows()} with a null literal, so nulls read back. */
    private static List<byte[]> csv() {
        var serializer = FlinkCsvOracle.of(ROW_TYPE, Map.of("null-literal", "NULL"));
        List<byte[]> records = new ArrayList<>();
        rows().forEach(row -> records.add(serializer.serialize(row)));
        records.add("4,NULL,NULL,NULL,,".getBytes(StandardCharsets.UTF_8)); // an empty ARRAY and a null ROW
        return records;
    }

    @Test
    void lengthPrefixedRecordsDecodeToWhatFlinkReads() throws Exception {
        List<byte[]> records = new ArrayList<>(csv());
        records.add(null); // a tombstone: Flink's CSV deserializer returns no row
        Path input = Files.write(dir.resolve("records.bin"), lengthPrefixed(records));
        Path output = dir.resolve("rows.arrows");
        CliProcess.Result result = run("decode", "--row-type", TYPE, "--format", "csv", "--option", "csv.null-literal=NULL",
                "--input", input.toString(), "--output", output.toString(), "--framing", "length-prefixed",
                "--batch-size", "2");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(readArrow(Files.readAllBytes(output))).containsExactlyElementsOf(flinkRows(records,
                Map.of("null-literal", "NULL")));
    }

    @Test
    void linesToStandardOutputAndSkippingWhatFlinkSkips() throws Exception {
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        List<byte[]> records = new ArrayList<>(csv());
        records.add(2, "1,\"unterminated".getBytes(StandardCharsets.UTF_8));
        for (byte[] record : records) {
            lines.write(record);
            lines.write('\n');
        }
        Path input = Files.write(dir.resolve("records.csv"), lines.toByteArray());
        CliProcess.Result result = run("decode", "--row-type", TYPE, "--format", "csv", "--input", input.toString(),
                "--option", "csv.null-literal=NULL", "--option", "csv.ignore-parse-errors=true");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        Map<String, String> options = Map.of("null-literal", "NULL", "ignore-parse-errors", "true");
        List<List<Object>> expected = flinkRows(records, options);
        assertThat(expected).hasSize(records.size() - 1);
        assertThat(readArrow(result.stdout())).containsExactlyElementsOf(expected);
    }

    @Test
    void aRecordFlinkRejectsFailsWithItsIndexAndWritesNothing() throws Exception {
        List<byte[]> records = new ArrayList<>(csv());
        records.add(3, "7,a,not-a-number,2020-01-01 00:00:00,x,1;y".getBytes(StandardCharsets.UTF_8));
        Path input = Files.write(dir.resolve("records.bin"), lengthPrefixed(records));
        Path output = dir.resolve("rows.arrows");
        CliProcess.Result result = run("decode", "--row-type", TYPE, "--format", "csv", "--option", "csv.null-literal=NULL",
                "--input", input.toString(), "--output", output.toString(), "--framing", "length-prefixed",
                "--batch-size", "2");
        CliProcess.Result toStdout = run("decode", "--row-type", TYPE, "--format", "csv", "--option", "csv.null-literal=NULL",
                "--input", input.toString(), "--framing", "length-prefixed");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderrLines()).singleElement().asString()
                .contains("record 3").contains("'price'").contains("NumberFormatException");
        assertThat(output).doesNotExist();
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("records.bin");
        assertThat(toStdout.exitCode()).isNotZero();
        assertThat(toStdout.stdout()).isEmpty();
    }

    @Test
    void encodeThenDecodeGivesTheRowsBack() throws Exception {
        Path arrow = dir.resolve("rows.arrows");
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(ROW_TYPE, allocator);
                OutputStream out = Files.newOutputStream(arrow)) {
            rows().forEach(writer::write);
            VectorSchemaRoot root = writer.finish();
            try (ArrowStreamWriter stream = new ArrowStreamWriter(root, null, out)) {
                stream.start();
                stream.writeBatch();
                stream.end();
            }
        }
        Path records = dir.resolve("records.bin");
        CliProcess.Result encoded = run("encode", "--row-type", TYPE, "--format", "csv", "--option", "csv.null-literal=NULL",
                "--input", arrow.toString(), "--output", records.toString(), "--framing", "length-prefixed");
        assertThat(encoded.exitCode()).as(encoded.stderr()).isZero();
        Path decoded = dir.resolve("decoded.arrows");
        CliProcess.Result result = run("decode", "--row-type", TYPE, "--format", "csv", "--option", "csv.null-literal=NULL",
                "--input", records.toString(), "--output", decoded.toString(), "--framing", "length-prefixed");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        List<List<Object>> expected = new ArrayList<>();
        rows().forEach(row -> expected.add(PlainValues.decodedFromFlink(row, ROW_TYPE)));
        assertThat(readArrow(Files.readAllBytes(decoded))).containsExactlyElementsOf(expected);
    }

    /** debezium-json: every op and a tombstone; each row with its kind, as Flink's deserializer collects them. */
    @Test
    void changelogRecordsDecodeWithTheirRowKinds() throws Exception {
        RowType type = RowTypes.parse("ROW<id BIGINT, name STRING>");
        List<byte[]> records = new ArrayList<>();
        for (String event : List.of("{\"before\":null,\"after\":{\"id\":1,\"name\":\"a\"},\"op\":\"c\"}",
                "{\"before\":{\"id\":1,\"name\":\"a\"},\"after\":{\"id\":1,\"name\":\"b\"},\"op\":\"u\",\"ts_ms\":1}",
                "{\"before\":{\"id\":1,\"name\":\"b\"},\"after\":null,\"op\":\"d\"}",
                "{\"after\":{\"id\":2,\"name\":null},\"op\":\"r\"}")) {
            records.add(event.getBytes(StandardCharsets.UTF_8));
        }
        records.add(2, null);
        Path input = Files.write(dir.resolve("events.bin"), lengthPrefixed(records));
        CliProcess.Result result = run("decode", "--row-type", "ROW<id BIGINT, name STRING>", "--format", "debezium-json",
                "--option", "debezium-json.row-kind.column=kind", "--input", input.toString(),
                "--framing", "length-prefixed");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        var flink = new org.apache.flink.formats.json.debezium.DebeziumJsonDeserializationSchema(
                org.apache.flink.table.types.utils.TypeConversions.fromLogicalToDataType(type), List.of(),
                org.apache.flink.table.runtime.typeutils.InternalTypeInfo.of(type), false, false,
                org.apache.flink.formats.common.TimestampFormat.SQL);
        List<List<Object>> expected = rowsWithKinds(flink, records, type);
        assertThat(expected).hasSize(5);
        RowType withKind = RowTypes.parse("ROW<id BIGINT, name STRING, kind TINYINT NOT NULL>");
        assertThat(readArrow(result.stdout(), withKind)).containsExactlyElementsOf(expected);
    }

    /**
     * canal-json: several rows in one event, an update whose old holds the changed field, a DDL event and a
     * tombstone skipped, an event of another database filtered out; each row with its kind, as Flink's
     * deserializer collects them.
     */
    @Test
    void canalRecordsDecodeWithTheirRowKinds() throws Exception {
        RowType type = RowTypes.parse("ROW<id BIGINT, name STRING>");
        List<byte[]> records = new ArrayList<>();
        for (String event : List.of(
                "{\"data\":[{\"id\":1,\"name\":\"a\"},{\"id\":2,\"name\":\"b\"}],\"database\":\"shop\",\"table\":\"t\",\"type\":\"INSERT\"}",
                "{\"data\":[{\"id\":1,\"name\":\"c\"}],\"old\":[{\"name\":\"a\"}],\"database\":\"shop\",\"table\":\"t\",\"type\":\"UPDATE\"}",
                "{\"data\":null,\"database\":\"shop\",\"table\":\"t\",\"type\":\"CREATE\",\"isDdl\":true,\"sql\":\"CREATE TABLE t\"}",
                "{\"data\":[{\"id\":9,\"name\":\"x\"}],\"database\":\"other\",\"table\":\"t\",\"type\":\"INSERT\"}",
                "{\"data\":[{\"id\":2,\"name\":\"b\"}],\"database\":\"shop\",\"table\":\"t\",\"type\":\"DELETE\"}")) {
            records.add(event.getBytes(StandardCharsets.UTF_8));
        }
        records.add(2, null);
        Path input = Files.write(dir.resolve("canal.bin"), lengthPrefixed(records));
        CliProcess.Result result = run("decode", "--row-type", "ROW<id BIGINT, name STRING>", "--format", "canal-json",
                "--option", "canal-json.row-kind.column=kind", "--option", "canal-json.database.include=sh.*",
                "--input", input.toString(), "--framing", "length-prefixed");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        var flink = org.apache.flink.formats.json.canal.CanalJsonDeserializationSchema.builder(
                        org.apache.flink.table.types.utils.TypeConversions.fromLogicalToDataType(type), List.of(),
                        org.apache.flink.table.runtime.typeutils.InternalTypeInfo.of(type))
                .setDatabase("sh.*").build();
        List<List<Object>> expected = rowsWithKinds(flink, records, type);
        assertThat(expected).hasSize(5);
        RowType withKind = RowTypes.parse("ROW<id BIGINT, name STRING, kind TINYINT NOT NULL>");
        assertThat(readArrow(result.stdout(), withKind)).containsExactlyElementsOf(expected);
    }

    /** The rows Flink's changelog deserializer collects for {@code records}, each with its row kind byte last. */
    private static List<List<Object>> rowsWithKinds(DeserializationSchema<RowData> flink, List<byte[]> records,
            RowType type) throws Exception {
        flink.open(null);
        List<List<Object>> rows = new ArrayList<>();
        for (byte[] record : records) {
            flink.deserialize(record, new org.apache.flink.util.Collector<>() {
                @Override
                public void collect(RowData row) {
                    List<Object> values = new ArrayList<>(PlainValues.decodedFromFlink(row, type));
                    values.add((long) row.getRowKind().toByteValue()); // PlainValues widens integers to long
                    rows.add(values);
                }

                @Override
                public void close() {}
            });
        }
        return rows;
    }

    /** A protobuf message class on the class path (here the format module's test messages) is all protobuf needs. */
    @Test
    void protobufRecordsOfAMessageClassOnTheClassPathDecode() throws Exception {
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            records.add(Inner3.newBuilder().setX(-i).setS("s\u00e9" + i).addL(i).build().toByteArray());
        }
        Path input = Files.write(dir.resolve("records.pb"), lengthPrefixed(records));
        String type = "ROW<s STRING, x INT, l ARRAY<BIGINT>>";
        CliProcess.Result result = run("decode", "--row-type", type, "--format", "protobuf", "--option",
                "protobuf.message-class-name=" + Inner3.class.getName(), "--input", input.toString(),
                "--framing", "length-prefixed");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        List<List<Object>> rows = readArrow(result.stdout(), RowTypes.parse(type));
        assertThat(rows).hasSize(5);
        assertThat(rows.get(3)).containsExactly("s\u00e93", -3L, List.of(3L));
    }

    /** avro-confluent records Flink's serializer wrote, each writer schema fetched from the registry by its id. */
    @Test
    void avroConfluentRecordsDecodeWithTheirWriterSchemasFromTheRegistry() throws Exception {
        RowType type = (RowType) ROW_TYPE.copy(false);
        try (TestSchemaRegistry registry = new TestSchemaRegistry(null)) {
            var serializer = FlinkAvroConfluentOracle.serializer(registry, "t-value", type);
            List<byte[]> records = new ArrayList<>();
            rows().forEach(row -> records.add(serializer.serialize(row)));
            records.add(null);
            Path input = Files.write(dir.resolve("records.avro"), lengthPrefixed(records));
            CliProcess.Result result = run("decode", "--row-type", TYPE + " NOT NULL", "--format", "avro-confluent",
                    "--option", "avro-confluent.url=" + registry.url(), "--input", input.toString(),
                    "--framing", "length-prefixed");

            assertThat(result.exitCode()).as(result.stderr()).isZero();
            DeserializationSchema<RowData> flink = FlinkAvroConfluentOracle.deserializer(registry, type);
            List<List<Object>> expected = new ArrayList<>();
            for (byte[] record : records.subList(0, 3)) {
                expected.add(PlainValues.decodedFromFlink(flink.deserialize(record), type));
            }
            assertThat(readArrow(result.stdout(), type)).hasSize(3).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void badArgumentsAreRejected() throws Exception {
        Path input = Files.write(dir.resolve("records.csv"), "1,a\n".getBytes(StandardCharsets.UTF_8));
        CliProcess.Result noDecoder = run("decode", "--row-type", TYPE, "--format", "parquet", "--input", input.toString());
        CliProcess.Result badOption = run("decode", "--row-type", TYPE, "--format", "csv", "--input", input.toString(),
                "--option", "csv.no-such-option=1");
        CliProcess.Result truncated = run("decode", "--row-type", "ROW<v STRING>", "--format", "raw", "--input",
                Files.write(dir.resolve("cut.bin"), new byte[] {0, 0, 0, 9, 'a'}).toString(),
                "--framing", "length-prefixed");

        assertThat(noDecoder.exitCode()).isNotZero();
        assertThat(noDecoder.stderrLines()).singleElement().asString().contains("parquet").contains("avro-confluent");
        assertThat(badOption.exitCode()).isNotZero();
        assertThat(badOption.stderrLines()).singleElement().asString().contains("no-such-option");
        assertThat(truncated.exitCode()).isNotZero();
        assertThat(truncated.stderrLines()).singleElement().asString().contains("record 0");
    }

    private static List<List<Object>> flinkRows(List<byte[]> records, Map<String, String> options) throws IOException {
        DeserializationSchema<RowData> flink = FlinkCsvOracle.deserializer(ROW_TYPE, options);
        List<List<Object>> rows = new ArrayList<>();
        for (byte[] record : records) {
            RowData row = flink.deserialize(record);
            if (row != null) {
                rows.add(PlainValues.decodedFromFlink(row, ROW_TYPE));
            }
        }
        return rows;
    }

    private static List<List<Object>> readArrow(byte[] stream) throws IOException {
        return readArrow(stream, ROW_TYPE);
    }

    private static List<List<Object>> readArrow(byte[] stream, RowType type) throws IOException {
        List<List<Object>> rows = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(stream), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            while (reader.loadNextBatch()) {
                for (int r = 0; r < root.getRowCount(); r++) {
                    rows.add(PlainValues.decodedFromArrow(root, type, r));
                }
            }
        }
        return rows;
    }

    private static byte[] lengthPrefixed(List<byte[]> records) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (byte[] record : records) {
            if (record == null) {
                out.writeInt(-1);
            } else {
                out.writeInt(record.length);
                out.write(record);
            }
        }
        return bytes.toByteArray();
    }

    private static CliProcess.Result run(String... args) throws Exception {
        return CliProcess.run(Duration.ofMinutes(2), args);
    }
}
