package io.columnarkafka.format.csv;

import io.columnarkafka.format.ByteOutput;
import io.columnarkafka.format.arrow.Offsets;
import io.columnarkafka.format.arrow.Utf8Scan;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.ValueVector;

/**
 * CHAR / VARCHAR (Arrow Utf8 or LargeUtf8): the bytes, copied. Flink writes the decoded Java String,
 * which differs from the bytes only for malformed UTF-8 (decoded to U+FFFD). Each batch is scanned once
 * for what quoting needs ({@link CsvQuoting#scan}) and, if it has bytes above 0x7F, for well-formedness
 * ({@link Utf8Scan}); only a batch with malformed bytes checks its values one by one.
 */
final class Utf8CsvWriter extends CsvValueWriter {
    private final Offsets offsets = new Offsets();
    private long data;
    private boolean checkEach;
    private final CsvQuoting quoting;
    /** {@link CsvQuoting#scan} flags of the bound batch's values. */
    private int quotingFlags;

    Utf8CsvWriter(String path, CsvQuoting quoting) {
        super(path, true);
        this.quoting = quoting;
    }

    @Override
    protected void bindValues(ValueVector vector, int count) {
        offsets.bind(path, vector.getOffsetBuffer(), count, vector instanceof LargeVarCharVector);
        data = address(vector.getDataBuffer(), offsets.last(), "data");
        long region = data + offsets.first();
        long length = offsets.last() - offsets.first();
        quotingFlags = quoting.scan(region, length);
        checkEach = false;
        if ((quotingFlags & CsvQuoting.NON_ASCII) != 0) {
            int flags = Utf8Scan.scan(region, length);
            checkEach = (flags & Utf8Scan.MALFORMED) != 0
                    || ((flags & Utf8Scan.NON_ASCII) != 0 && Utf8Scan.splitsSequence(data, offsets, count));
        }
    }

    /** Quoting is decided on the Arrow bytes, so a value is copied once (unless malformed). */
    @Override
    void writeField(ByteOutput out, int index, CsvQuoting quoting) {
        if (checkEach) {
            super.writeField(out, index, quoting);
            return;
        }
        long start = offsets.get(index);
        quoting.writeFromMemory(out, data + start, (int) (offsets.get(index + 1) - start), quotingFlags);
    }

    @Override
    void write(ByteOutput out, int index) {
        long start = data + offsets.get(index);
        long length = offsets.get(index + 1) - offsets.get(index);
        if (checkEach && (Utf8Scan.scan(start, length) & Utf8Scan.MALFORMED) != 0) {
            byte[] bytes = new byte[(int) length];
            MemoryUtil.copyFromMemory(start, bytes, 0, bytes.length);
            out.writeBytes(new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8));
            return;
        }
        out.ensure(length);
        out.copyFromMemory(start, (int) length);
    }
}
