package io.columnarkafka.cli;

import static io.columnarkafka.format.arrow.FlinkValues.array;
import static io.columnarkafka.format.arrow.FlinkValues.dec;
import static io.columnarkafka.format.arrow.FlinkValues.map;
import static io.columnarkafka.format.arrow.FlinkValues.row;
import static io.columnarkafka.format.arrow.FlinkValues.str;
import static io.columnarkafka.format.arrow.FlinkValues.ts;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.json.parity.FlinkJsonOracle;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the encode command as a real process, the way a user runs it, and checks its output against
 * Flink's own {@code JsonRowDataSerializationSchema} on the same rows.
 */
class EncodeCommandTest {
    private static final String TYPE =
            "ROW<id BIGINT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), tags ARRAY<STRING>,"
                    + " attrs MAP<STRING, INT>, nested ROW<x DOUBLE, y ROW<z STRING>>>";
    private static final RowType ROW_TYPE = RowTypes.parse(TYPE);
    private static final int BATCH_ROWS = 3;

    @TempDir Path dir;

    private static List<RowData> rows() {
        List<RowData> rows = new ArrayList<>();
        rows.add(row(1L, str("plain"), dec("100.00", 10, 2), ts("2024-02-29T23:59:59.120"),
                array(str("a"), null, str("")), map(str("k"), 1, str("n"), null),
                row(1.5d, row(str("deep")))));
        rows.add(row(2L, null, null, null, null, null, null));
        rows.add(row(-3L, str("quote\" backslash\\ tab\t emoji \uD83D\uDE00 é"), dec("-0.01", 10, 2),
                ts("1969-12-31T23:59:59.999"), array(), map(), row(Double.NaN, row((Object) null))));
        rows.add(row(Long.MAX_VALUE, str("/slash"), dec("12345678.90", 10, 2), ts("9999-12-31T23:59:59.999"),
                array(str("x")), map(str("z"), Integer.MIN_VALUE), row(null, null)));
        return rows;
    }

    @Test
    void lengthPrefixedOutputOfAnArrowFileEqualsFlinksBytes() throws Exception {
        Path input = writeArrow(dir.resolve("rows.arrow"), true);
        Path output = dir.resolve("records.bin");
        CliProcess.Result result = run("encode", "--row-type", TYPE, "--format", "json", "--input", input.toString(),
                "--output", output.toString(), "--framing", "length-prefixed");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(readLengthPrefixed(Files.readAllBytes(output))).containsExactlyElementsOf(flinkBytes(Map.of()));
    }

    @Test
    void linesOutputOfAnArrowStreamHonoursOptions() throws Exception {
        Path input = writeArrow(dir.resolve("rows.arrows"), false);
        CliProcess.Result result = run("encode", "--row-type", TYPE, "--format", "json", "--input", input.toString(),
                "--option", "json.encode.ignore-null-fields=true",
                "--option", "json.encode.decimal-as-plain-number=true");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (byte[] record : flinkBytes(Map.of(
                "encode.ignore-null-fields", "true", "encode.decimal-as-plain-number", "true"))) {
            expected.write(record);
            expected.write('\n');
        }
        assertThat(result.stdout()).isEqualTo(expected.toByteArray());
    }

    @Test
    void aMissingInputFailsWithOneLineAndNoOutputFile() throws Exception {
        Path output = dir.resolve("out.bin");
        CliProcess.Result result = run("encode", "--row-type", TYPE, "--format", "json",
                "--input", dir.resolve("missing.arrow").toString(), "--output", output.toString());

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderrLines()).singleElement().asString().contains("missing.arrow");
        assertThat(output).doesNotExist();
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aRowTypeThatDoesNotFitTheBatchNamesTheColumnAndWritesNothing() throws Exception {
        Path input = writeArrow(dir.resolve("rows.arrow"), true);
        Path output = dir.resolve("out.bin");
        String wrongType = TYPE.replace("price DECIMAL(10, 2)", "price DOUBLE");
        CliProcess.Result result = run("encode", "--row-type", wrongType, "--format", "json",
                "--input", input.toString(), "--output", output.toString());

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderrLines()).singleElement().asString()
                .contains("'price'").contains("Decimal(10, 2").contains("FloatingPoint(DOUBLE)");
        assertThat(output).doesNotExist();
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("rows.arrow");
    }

    @Test
    void unknownOptionsAndValuesAreRejected() throws Exception {
        Path input = writeArrow(dir.resolve("rows.arrow"), true);
        CliProcess.Result unknown = run("encode", "--row-type", TYPE, "--format", "json", "--input", input.toString(),
                "--option", "json.no-such-option=1");
        CliProcess.Result badValue = run("encode", "--row-type", TYPE, "--format", "json", "--input", input.toString(),
                "--option", "json.map-null-key.mode=SOMETIMES");
        CliProcess.Result badFormat = run("encode", "--row-type", TYPE, "--format", "xml", "--input", input.toString());

        assertThat(unknown.exitCode()).isNotZero();
        assertThat(unknown.stderrLines()).singleElement().asString().contains("no-such-option");
        assertThat(badValue.exitCode()).isNotZero();
        assertThat(badValue.stderrLines()).singleElement().asString().contains("SOMETIMES");
        assertThat(badFormat.exitCode()).isNotZero();
        assertThat(badFormat.stderrLines()).singleElement().asString().contains("xml");
        assertThat(unknown.stdout()).isEmpty();
    }

    private List<byte[]> flinkBytes(Map<String, String> options) {
        FlinkJsonOracle oracle = FlinkJsonOracle.of(ROW_TYPE, options);
        List<byte[]> expected = new ArrayList<>();
        for (RowData row : rows()) {
            expected.add(oracle.serialize(row));
        }
        return expected;
    }

    /** Writes the rows in batches of {@value #BATCH_ROWS}, so the command reads more than one batch. */
    private static Path writeArrow(Path path, boolean fileFormat) throws IOException {
        return ArrowFiles.write(path, ROW_TYPE, rows(), BATCH_ROWS, fileFormat);
    }

    private static List<byte[]> readLengthPrefixed(byte[] bytes) throws IOException {
        List<byte[]> records = new ArrayList<>();
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
        while (in.available() > 0) {
            int length = in.readInt();
            records.add(length < 0 ? null : in.readNBytes(length));
        }
        return records;
    }

    private static CliProcess.Result run(String... args) throws Exception {
        return CliProcess.run(Duration.ofMinutes(2), args);
    }
}
