package io.columnarkafka.cli;

import io.columnarkafka.format.BatchDecoder;
import io.columnarkafka.format.DecodeException;
import io.columnarkafka.format.DecodedBatch;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RecordBytes;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code columnar-kafka decode}: decodes framed Kafka record bytes with a columnar decoder into an Arrow IPC
 * stream, the mirror of {@code encode}, so users can check what the columnar source makes of their topic's
 * bytes. A record the format rejects fails the command with the record's index and the reason, and no
 * output is written.
 */
final class DecodeCommand {
    static final String USAGE = String.join("\n",
            "usage: columnar-kafka decode --row-type '<Flink ROW type>' --format csv",
            "                             [--option csv.KEY=VALUE ...] --input FILE|-",
            "                             [--output FILE] [--framing lines|length-prefixed] [--batch-size N]",
            "",
            "  --row-type   the rows' Flink row type, e.g. 'ROW<id BIGINT, name STRING>'",
            "  --format     the value format: " + Formats.decodable(),
            "  --option     a format option with Flink's key, e.g. csv.ignore-parse-errors=true;",
            "               the changelog formats (debezium-json, canal-json, maxwell-json, ogg-json) need",
            "               FORMAT.row-kind.column=NAME: the TINYINT column, after the row type's, that holds",
            "               each row's RowKind byte (0 +I, 1 -U, 2 +U, 3 -D)",
            "  --input      the records; - reads standard input",
            "  --output     where to write the Arrow IPC stream (default: standard output); written whole or not at all",
            "  --framing    lines (default): each record then a newline;",
            "               length-prefixed: a 4-byte big-endian length then the bytes, -1 for a null record",
            "  --batch-size records per Arrow batch (default 1024)");

    private final RowType rowType;
    private final String format;
    private final Map<String, String> options;
    private final String input;
    private final Path output;
    private final Framing framing;
    private final int batchSize;

    private DecodeCommand(RowType rowType, String format, Map<String, String> options, String input, Path output,
            Framing framing, int batchSize) {
        this.rowType = rowType;
        this.format = format;
        this.options = options;
        this.input = input;
        this.output = output;
        this.framing = framing;
        this.batchSize = batchSize;
    }

    static DecodeCommand parse(List<String> args) {
        String rowType = null;
        String format = null;
        List<String> rawOptions = new ArrayList<>();
        String input = null;
        String output = null;
        Framing framing = Framing.LINES;
        int batchSize = 1024;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--row-type" -> rowType = EncodeCommand.value(args, ++i, arg);
                case "--format" -> format = EncodeCommand.value(args, ++i, arg);
                case "--option" -> rawOptions.add(EncodeCommand.value(args, ++i, arg));
                case "--input" -> input = EncodeCommand.value(args, ++i, arg);
                case "--output" -> output = EncodeCommand.value(args, ++i, arg);
                case "--framing" -> framing = Framing.parse(EncodeCommand.value(args, ++i, arg));
                case "--batch-size" -> batchSize = positive(EncodeCommand.value(args, ++i, arg));
                default -> throw new UsageException("unknown argument '" + arg + "'; see --help");
            }
        }
        EncodeCommand.require(rowType, "--row-type");
        EncodeCommand.require(format, "--format");
        EncodeCommand.require(input, "--input");
        if (!Formats.decodable().contains(format)) {
            throw new UsageException("format '" + format + "' has no columnar decoder; supported: " + Formats.decodable());
        }
        Map<String, String> options = EncodeCommand.formatOptions(format, rawOptions);
        return new DecodeCommand(RowTypes.parse(rowType), format, options, input,
                output == null ? null : Path.of(output), framing, batchSize);
    }

    private static int positive(String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--batch-size must be a positive integer, not '" + value + "'");
    }

    /** Runs the command; returns the number of rows written. */
    long run(PrintStream stdout) throws IOException {
        BatchDecoder decoder = Formats.decoder(format, rowType, options);
        if (output == null) {
            ByteArrayOutputStream whole = new ByteArrayOutputStream(); // nothing reaches stdout unless all decodes
            long rows = decodeTo(decoder, whole);
            whole.writeTo(stdout);
            return rows;
        }
        return AtomicFile.write(output, out -> decodeTo(decoder, out));
    }

    private long decodeTo(BatchDecoder decoder, OutputStream out) throws IOException {
        long rows = 0;
        try (InputStream in = open();
                BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot written = VectorSchemaRoot.create(
                        ArrowLayout.schema(decoder.rowType(), decoder.timestampLayout()), allocator);
                ArrowStreamWriter writer = new ArrowStreamWriter(written, null, out)) {
            writer.start();
            VectorLoader loader = new VectorLoader(written);
            RecordBytes records = new RecordBytes();
            long first = 0;
            long index = 0;
            boolean more = true;
            while (more) {
                records.clear();
                while (records.count() < batchSize) {
                    byte[] record = framing.read(in, index);
                    if (record == Framing.END) {
                        more = false;
                        break;
                    }
                    records.add(record);
                    index++;
                }
                if (records.count() == 0) {
                    break;
                }
                try (DecodedBatch batch = decoder.decode(records, allocator);
                        ArrowRecordBatch unloaded = new VectorUnloader(batch.root()).getRecordBatch()) {
                    loader.load(unloaded);
                    writer.writeBatch();
                    rows += batch.rowCount();
                } catch (DecodeException e) {
                    throw new IOException("record " + (first + e.record())
                            + (e.field() == null ? "" : ", field '" + e.field() + "'") + ": " + e.reason(), e);
                }
                first = index;
            }
            writer.end();
        }
        return rows;
    }

    private InputStream open() throws IOException {
        if (input.equals("-")) {
            return new BufferedInputStream(System.in);
        }
        Path path = Path.of(input);
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new UsageException("cannot read input file " + path);
        }
        return new BufferedInputStream(Files.newInputStream(path), 1 << 16);
    }
}
