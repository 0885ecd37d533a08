package io.columnarkafka.bench.nexmark;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What a stateless query writes for each input record, by the record's partition and offset: the exact value
 * bytes stock Flink's sink writes for it, or nothing (the query drops it). The floor cell ({@link FloorJob}) looks
 * each record up here instead of decoding, evaluating and encoding it; {@link FloorPrecompute} fills it, once per
 * query, outside every timed job. An offset past a partition's last kept record, or a partition with none, keeps
 * nothing.
 */
final class FloorTable {
    /** Per input partition, per offset: the output value, or null. */
    private final byte[][][] values;

    private FloorTable(byte[][][] values) {
        this.values = values;
    }

    /** The output value the query writes for the input record at {@code partition} / {@code offset}; null if none. */
    byte[] value(int partition, long offset) {
        if (partition >= values.length) {
            return null;
        }
        byte[][] byOffset = values[partition];
        return offset < byOffset.length ? byOffset[(int) offset] : null;
    }

    /** The number of input records that get an output value. */
    long kept() {
        return Arrays.stream(values).flatMap(Arrays::stream).filter(v -> v != null).count();
    }

    /** Where a run keeps the table of {@code query} (in its work directory). */
    static Path file(Path workDir, NexmarkQuery query) {
        return workDir.resolve("floor-" + query.id() + ".values");
    }

    /** Collects the (partition, offset, value) entries of a table; one value per input record. */
    static final class Builder {
        private byte[][][] values = new byte[0][][];

        Builder put(int partition, long offset, byte[] value) {
            if (partition >= values.length) {
                values = Arrays.copyOf(values, partition + 1);
            }
            byte[][] byOffset = values[partition] == null ? new byte[0][] : values[partition];
            if (offset >= byOffset.length) {
                byOffset = Arrays.copyOf(byOffset, (int) Math.max(offset + 1, 2L * byOffset.length));
            }
            if (byOffset[(int) offset] != null) {
                throw new IllegalStateException("two output values for input record " + partition + "@" + offset);
            }
            byOffset[(int) offset] = value;
            values[partition] = byOffset;
            return this;
        }

        FloorTable build() {
            byte[][][] trimmed = new byte[values.length][][];
            for (int p = 0; p < values.length; p++) {
                byte[][] byOffset = values[p] == null ? new byte[0][] : values[p];
                int end = byOffset.length;
                while (end > 0 && byOffset[end - 1] == null) {
                    end--;
                }
                trimmed[p] = Arrays.copyOf(byOffset, end);
            }
            return new FloorTable(trimmed);
        }
    }

    /** Writes the table: partitions, then per partition its length in offsets and each offset's value or -1. */
    void write(Path file) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            out.writeInt(values.length);
            for (byte[][] byOffset : values) {
                out.writeInt(byOffset.length);
                for (byte[] value : byOffset) {
                    out.writeInt(value == null ? -1 : value.length);
                    if (value != null) {
                        out.write(value);
                    }
                }
            }
        }
    }

    static FloorTable read(Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            byte[][][] values = new byte[in.readInt()][][];
            for (int p = 0; p < values.length; p++) {
                values[p] = new byte[in.readInt()][];
                for (int o = 0; o < values[p].length; o++) {
                    int length = in.readInt();
                    if (length >= 0) {
                        values[p][o] = in.readNBytes(length);
                    }
                }
            }
            return new FloorTable(values);
        }
    }
}
