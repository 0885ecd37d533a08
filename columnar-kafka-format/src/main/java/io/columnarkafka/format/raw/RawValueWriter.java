package io.columnarkafka.format.raw;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.BoundColumn;
import io.columnarkafka.format.arrow.Offsets;
import io.columnarkafka.format.arrow.Utf8Scan;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.ValueVector;

/** Writes the value of the raw format's one column as the whole record, as Flink's converters do. */
abstract class RawValueWriter extends BoundColumn {

    RawValueWriter(String path) {
        super(path);
    }

    /** Writes the non-null value at {@code index}: the record's bytes. */
    abstract void write(ByteOutput out, int index);

    /** Writes the bound batch's {@code rows} values as one record each; a null value is a null record. */
    void writeBatch(ByteOutput out, int rows) {
        for (int row = 0; row < rows; row++) {
            writeRow(out, row);
        }
    }

    /** Writes the values of rows {@code selected[0 .. count)} of the bound batch as one record each. */
    final void writeRows(ByteOutput out, int[] selected, int count) {
        for (int k = 0; k < count; k++) {
            writeRow(out, selected[k]);
        }
    }

    private void writeRow(ByteOutput out, int row) {
        if (isNull(row)) {
            out.nullRecord(row);
        } else {
            out.startRecord(row);
            write(out, row);
            out.endRecord();
        }
    }

    /**
     * BINARY / VARBINARY, and CHAR / VARCHAR in UTF-8: the value's bytes as they are. Flink hands out the
     * {@code StringData}'s UTF-8 bytes without decoding them, so even malformed bytes are kept.
     */
    static final class Bytes extends RawValueWriter {
        final Offsets offsets = new Offsets();
        long data;

        Bytes(String path) {
            super(path);
        }

        @Override
        protected void bindValues(ValueVector vector, int count) {
            boolean large = vector instanceof LargeVarBinaryVector || vector instanceof LargeVarCharVector;
            offsets.bind(path, vector.getOffsetBuffer(), count, large);
            data = address(vector.getDataBuffer(), offsets.last(), "data");
        }

        @Override
        void write(ByteOutput out, int index) {
            long start = offsets.get(index);
            long length = offsets.get(index + 1) - start;
            out.ensure(length);
            out.copyFromMemory(data + start, (int) length);
        }

        /**
         * The values lie back to back in the data buffer, as the records lie in the slab: one bulk copy
         * of the batch's bytes, then each record is marked where its value landed. (Bytes Arrow keeps
         * under a null value, if any, are copied too but belong to no record.)
         */
        @Override
        void writeBatch(ByteOutput out, int rows) {
            long first = offsets.first();
            long total = offsets.last() - first;
            out.ensure(total);
            int base = out.pos;
            if (total > 0) {
                out.copyFromMemory(data + first, (int) total);
            }
            long shift = base - first;
            for (int row = 0; row < rows; row++) {
                out.pos = (int) (offsets.get(row) + shift);
                if (isNull(row)) {
                    out.pos = (int) (offsets.get(row + 1) + shift);
                    out.nullRecord(row);
                } else {
                    out.startRecord(row);
                    out.pos = (int) (offsets.get(row + 1) + shift);
                    out.endRecord();
                }
            }
            out.pos = (int) (base + total);
        }
    }

    /**
     * CHAR / VARCHAR in another charset: Flink decodes the UTF-8 bytes to a String and encodes it with the
     * charset. A batch that is all ASCII, in a charset that spells ASCII as ASCII, is copied as it is.
     */
    static final class Recoded extends RawValueWriter {
        private final Bytes utf8;
        private final Charset charset;
        private final boolean asciiCompatible;
        private boolean ascii;

        Recoded(String path, Charset charset) {
            super(path);
            this.utf8 = new Bytes(path);
            this.charset = charset;
            this.asciiCompatible = spellsAsciiAsAscii(charset);
        }

        private static boolean spellsAsciiAsAscii(Charset charset) {
            byte[] ascii = new byte[128];
            for (int i = 0; i < ascii.length; i++) {
                ascii[i] = (byte) i;
            }
            String text = new String(ascii, StandardCharsets.US_ASCII);
            return charset.canEncode() && java.util.Arrays.equals(text.getBytes(charset), ascii);
        }

        @Override
        protected void bindValues(ValueVector vector, int count) {
            utf8.bind(vector, count); // validity too: the ASCII path writes the batch through utf8
            long first = utf8.offsets.first();
            int flags = Utf8Scan.scan(utf8.data + first, utf8.offsets.last() - first);
            ascii = asciiCompatible && (flags & (Utf8Scan.NON_ASCII | Utf8Scan.MALFORMED)) == 0;
        }

        @Override
        void writeBatch(ByteOutput out, int rows) {
            if (ascii) {
                utf8.writeBatch(out, rows);
            } else {
                super.writeBatch(out, rows);
            }
        }

        @Override
        void write(ByteOutput out, int index) {
            if (ascii) {
                utf8.write(out, index);
                return;
            }
            long start = utf8.offsets.get(index);
            byte[] bytes = new byte[(int) (utf8.offsets.get(index + 1) - start)];
            MemoryUtil.copyFromMemory(utf8.data + start, bytes, 0, bytes.length);
            out.writeBytes(new String(bytes, StandardCharsets.UTF_8).getBytes(charset));
        }
    }

    /**
     * BOOLEAN (one byte 0 or 1), TINYINT (one byte) and SMALLINT, INT, BIGINT, FLOAT, DOUBLE in the
     * configured byte order; floats keep their raw bits, NaN payloads included, as Flink's memory segments
     * write them.
     */
    static final class Fixed extends RawValueWriter {
        private final int width;
        private final boolean bigEndian;
        private final boolean bits;
        private long data;

        /** A number of {@code width} bytes; {@code width} 0 means BOOLEAN (a bit in Arrow, a byte out). */
        Fixed(String path, int width, boolean bigEndian) {
            super(path);
            this.bits = width == 0;
            this.width = bits ? 1 : width;
            this.bigEndian = bigEndian;
        }

        @Override
        protected void bindValues(ValueVector vector, int count) {
            long bytes = bits ? (count + 7L) / 8 : (long) count * width;
            data = address(vector.getDataBuffer(), bytes, "data");
        }

        @Override
        void write(ByteOutput out, int index) {
            out.ensure(width);
            byte[] b = out.buf;
            int p = out.pos;
            if (bits) {
                b[p] = (byte) ((MemoryUtil.getByte(data + (index >> 3)) >> (index & 7)) & 1);
            } else {
                long address = data + (long) width * index;
                for (int k = 0; k < width; k++) {
                    // Arrow memory is little-endian.
                    b[p + (bigEndian ? width - 1 - k : k)] = MemoryUtil.getByte(address + k);
                }
            }
            out.pos = p + width;
        }
    }
}
