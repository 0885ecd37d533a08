package io.columnarkafka.cli;

import io.columnarkafka.format.RecordSlab;
import java.io.DataOutputStream;
import java.io.IOException;

/** How the encode command separates records in its output. */
enum Framing {
    /** Each record followed by a newline; a null record is an empty line. */
    LINES {
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

    abstract void write(RecordSlab slab, DataOutputStream out) throws IOException;

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
