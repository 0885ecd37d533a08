package io.columnarkafka.cli;

import io.columnarkafka.format.arrow.RowDataArrowWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** Writes Flink rows as an Arrow IPC input for the commands. */
final class ArrowFiles {
    private ArrowFiles() {}

    /** Writes {@code rows} in batches of {@code batchRows}, in the IPC file format or the stream format. */
    static Path write(Path path, RowType type, List<RowData> rows, int batchRows, boolean fileFormat) throws IOException {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(type, allocator);
                OutputStream out = Files.newOutputStream(path)) {
            ArrowWriter arrow = null;
            for (int start = 0; start < rows.size(); start += batchRows) {
                writer.reset();
                for (RowData row : rows.subList(start, Math.min(rows.size(), start + batchRows))) {
                    writer.write(row);
                }
                VectorSchemaRoot root = writer.finish();
                if (arrow == null) {
                    arrow = fileFormat
                            ? new ArrowFileWriter(root, null, Channels.newChannel(out))
                            : new ArrowStreamWriter(root, null, out);
                    arrow.start();
                }
                arrow.writeBatch();
            }
            arrow.end();
            arrow.close();
        }
        return path;
    }
}
