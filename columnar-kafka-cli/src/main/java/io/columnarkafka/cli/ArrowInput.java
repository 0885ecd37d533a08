package io.columnarkafka.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/** Opens an Arrow IPC input, in the file format or the stream format, told apart by the file's magic. */
final class ArrowInput {
    /** The Arrow IPC file format starts with these six bytes; the stream format does not. */
    private static final byte[] FILE_MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);

    private ArrowInput() {}

    /** Opens {@code input}; {@code -} reads the stream format from standard input. */
    static ArrowReader open(String input, BufferAllocator allocator) throws IOException {
        if (input.equals("-")) {
            return new ArrowStreamReader(new BufferedInputStream(System.in), allocator);
        }
        Path path = Path.of(input);
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new UsageException("cannot read input file " + path);
        }
        if (isFileFormat(path)) {
            return new ArrowFileReader(FileChannel.open(path, StandardOpenOption.READ), allocator);
        }
        return new ArrowStreamReader(new BufferedInputStream(Files.newInputStream(path)), allocator);
    }

    private static boolean isFileFormat(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            return Arrays.equals(in.readNBytes(FILE_MAGIC.length), FILE_MAGIC);
        }
    }
}
