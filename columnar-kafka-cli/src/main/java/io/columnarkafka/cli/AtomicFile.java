package io.columnarkafka.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a command's output file all or nothing: into a hidden temporary file beside the target, moved
 * over the target only when the whole body succeeded. A failed run (a malformed record half-way) leaves
 * no half-written file behind and an existing target untouched.
 */
final class AtomicFile {
    /** Writes the body's output; returns what it counted (rows or records). */
    interface Body {
        long writeTo(OutputStream out) throws IOException;
    }

    private AtomicFile() {}

    static long write(Path target, Body body) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path temp = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".partial");
        try {
            long count;
            try (OutputStream out = Files.newOutputStream(temp)) {
                count = body.writeTo(out);
            }
            Files.move(temp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return count;
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
