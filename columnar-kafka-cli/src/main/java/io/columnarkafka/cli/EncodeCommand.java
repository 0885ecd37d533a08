package io.columnarkafka.cli;

import io.columnarkafka.format.BatchEncoder;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.Projection;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code columnar-kafka encode}: encodes an Arrow IPC input with a columnar encoder and writes the
 * records exactly as a sink would send them, so users can preview and diff a sink's output.
 */
final class EncodeCommand {
    static final String USAGE = String.join("\n",
            "usage: columnar-kafka encode --row-type '<Flink ROW type>' --format json",
            "                             [--option json.KEY=VALUE ...] --input FILE|-",
            "                             [--output FILE] [--framing lines|length-prefixed]",
            "",
            "  --row-type   the batch's Flink row type, e.g. 'ROW<id BIGINT, name STRING>'",
            "  --format     the value format: " + Formats.supported(),
            "  --option     a format option with Flink's key, e.g. json.encode.ignore-null-fields=true",
            "  --input      an Arrow IPC file (file or stream format, detected); - reads a stream from stdin",
            "  --output     where to write the records (default: standard output); written whole or not at all",
            "  --framing    lines (default): each record then a newline;",
            "               length-prefixed: a 4-byte big-endian length then the bytes, -1 for a null record");

    private final RowType rowType;
    private final String format;
    private final Map<String, String> options;
    private final String input;
    private final Path output;
    private final Framing framing;

    private EncodeCommand(
            RowType rowType, String format, Map<String, String> options, String input, Path output, Framing framing) {
        this.rowType = rowType;
        this.format = format;
        this.options = options;
        this.input = input;
        this.output = output;
        this.framing = framing;
    }

    static EncodeCommand parse(List<String> args) {
        String rowType = null;
        String format = null;
        List<String> rawOptions = new java.util.ArrayList<>();
        String input = null;
        String output = null;
        Framing framing = Framing.LINES;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--row-type" -> rowType = value(args, ++i, arg);
                case "--format" -> format = value(args, ++i, arg);
                case "--option" -> rawOptions.add(value(args, ++i, arg));
                case "--input" -> input = value(args, ++i, arg);
                case "--output" -> output = value(args, ++i, arg);
                case "--framing" -> framing = Framing.parse(value(args, ++i, arg));
                default -> throw new UsageException("unknown argument '" + arg + "'; see --help");
            }
        }
        require(rowType, "--row-type");
        require(format, "--format");
        require(input, "--input");
        if (!Formats.supported().contains(format)) {
            throw new UsageException("format '" + format + "' has no columnar encoder; supported: " + Formats.supported());
        }
        Map<String, String> options = formatOptions(format, rawOptions);
        return new EncodeCommand(RowTypes.parse(rowType), format, options, input,
                output == null ? null : Path.of(output), framing);
    }

    /** The {@code --option FORMAT.KEY=VALUE} arguments as Flink's keys without the format prefix. */
    static Map<String, String> formatOptions(String format, List<String> rawOptions) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String option : rawOptions) {
            int eq = option.indexOf('=');
            String prefix = format + ".";
            if (eq < 0 || !option.startsWith(prefix)) {
                throw new UsageException("option '" + option + "' must look like " + prefix + "KEY=VALUE");
            }
            options.put(option.substring(prefix.length(), eq), option.substring(eq + 1));
        }
        return options;
    }

    static String value(List<String> args, int i, String flag) {
        if (i >= args.size()) {
            throw new UsageException(flag + " needs a value");
        }
        return args.get(i);
    }

    static void require(String value, String flag) {
        if (value == null) {
            throw new UsageException("missing " + flag + "; see --help");
        }
    }

    /** Runs the command; returns the number of records written. */
    long run(PrintStream stdout) throws IOException {
        BatchEncoder encoder = Formats.encoder(format, Projection.all(rowType), options);
        if (output == null) {
            return encodeTo(encoder, stdout);
        }
        return AtomicFile.write(output, out -> encodeTo(encoder, out));
    }

    private long encodeTo(BatchEncoder encoder, OutputStream sink) throws IOException {
        long records = 0;
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(sink, 1 << 16));
        try (BufferAllocator allocator = new RootAllocator();
                ArrowReader reader = ArrowInput.open(input, allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            ArrowLayout.check(rowType, root);
            while (reader.loadNextBatch()) {
                framing.write(encoder.encode(root), out);
                records += root.getRowCount();
            }
        }
        out.flush();
        return records;
    }
}
