package io.columnarkafka.cli;

import io.columnarkafka.format.RecordSlab;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** How the encode command separates records in its output, and the decode command in its input. */
enum Framing {
    /** Each record followed by a newline; a null record is an empty line (read back as an empty record). */
    LINES {
        @Override
        byte[] read(InputStream in, long index) throws IOException {
            java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
            int b = in.read();
            if (b < 0) {
                return END;
            }
            while (b >= 0 && b != '\n') {
                line.write(b);
                b = in.read();
            }
            return line.toByteArray();
        }

        @Override
        void write(RecordSlab slab, DataOutputStream out) throws IOException {
            byte[] buffer = slab.buffer();
            for (int i = 0; i < slab.recordCount(); i++) {
                int length = slab.length(i);
                if (length > 0) {
                    out.write(buffer, slab.start(i), length);
                }
                out.write('\n');
            }
        }
    },
    /** Per record a 4-byte big-endian signed length, then the bytes; length -1 for a null record. */
    LENGTH_PREFIXED {
        @Override
        byte[] read(InputStream in, long index) throws IOException {
            int first = in.read();
            if (first < 0) {
                return END;
            }
            byte[] rest = in.readNBytes(3);
            if (rest.length < 3) {
                throw new IOException("input ends inside the length of record " + index);
            }
            int length = first << 24 | (rest[0] & 0xFF) << 16 | (rest[1] & 0xFF) << 8 | (rest[2] & 0xFF);
            if (length == -1) {
                return null;
            }
            if (length < -1) {
                throw new IOException("record " + index + " has the length " + length);
            }
            byte[] record = in.readNBytes(length);
            if (record.length < length) {
                throw new IOException("input ends inside record " + index + " (" + record.length + " of " + length
                        + " bytes)");
            }
            return record;
        }

        @Override
        void write(RecordSlab slab, DataOutputStream out) throws IOException {
            byte[] buffer = slab.buffer();
            for (int i = 0; i < slab.recordCount(); i++) {
                int length = slab.length(i);
                if (length < 0) {
                    out.writeInt(-1);
                } else {
                    out.writeInt(length);
                    out.write(buffer, slab.start(i), length);
                }
            }
        }
    };

    /** What {@link #read} returns at the end of the input. */
    static final byte[] END = new byte[0];

    abstract void write(RecordSlab slab, DataOutputStream out) throws IOException;

    /**
     * Reads record {@code index} (for messages): its bytes, null for a null record, or the instance {@link
     * #END} at the end of the input.
     */
    abstract byte[] read(InputStream in, long index) throws IOException;

    static Framing parse(String name) {
        switch (name) {
            case "lines":
                return LINES;
            case "length-prefixed":
                return LENGTH_PREFIXED;
            default:
                throw new UsageException("unknown framing '" + name + "'; use lines or length-prefixed");
        }
    }
}
