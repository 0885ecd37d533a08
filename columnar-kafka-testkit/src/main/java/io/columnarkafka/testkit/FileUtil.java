package io.columnarkafka.testkit;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** File helpers for the testkit. Not public API. */
final class FileUtil {

    private FileUtil() {
    }

    /** Deletes {@code root} and everything below it; files that vanish meanwhile are not an error. */
    static void deleteRecursively(Path root) throws IOException {
        if (root == null || !Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                if (exc instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw exc;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null && !(exc instanceof NoSuchFileException)) {
                    throw exc;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    static void deleteRecursivelyQuietly(Path root) {
        try {
            deleteRecursively(root);
        } catch (IOException | RuntimeException e) {
            // best effort
        }
    }

    /** The last {@code maxLines} lines of a text file, reading at most its last 64 KiB; "" if it is missing. */
    static String tail(Path file, int maxLines) {
        if (file == null || !Files.isRegularFile(file)) {
            return "";
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            int toRead = (int) Math.min(length, 64 * 1024);
            byte[] bytes = new byte[toRead];
            raf.seek(length - toRead);
            raf.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            String[] lines = text.split("\r?\n", -1);
            int end = lines.length;
            if (end > 0 && lines[end - 1].isEmpty()) {
                end--;
            }
            int start = Math.max(0, end - maxLines);
            if (toRead < length && start == 0 && end > 0) {
                start = 1; // the first line is probably cut
            }
            return String.join(System.lineSeparator(), java.util.Arrays.copyOfRange(lines, start, end));
        } catch (IOException e) {
            return "(could not read " + file + ": " + e + ")";
        }
    }
}
