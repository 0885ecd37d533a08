package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.ByteOutput;

/**
 * The fast path for a message of scalar numbers and strings only (no nesting, oneof or required field),
 * such as the Nexmark Bid: the same bytes as {@link PbMessageFields#write}, with the batch's worst-case
 * size known up front (per row every tag and a full varint, plus every string byte of the batch), so
 * room is made once per batch instead of once per field, and each field is a direct call to a final class
 * chosen by a boolean rather than a virtual call over the writers.
 */
final class PbFlatMessage {
    /** Per field in field-number order: its writer if a number, else null. */
    private final PbNumberWriter[] numbers;
    /** Per field in field-number order: its writer if bytes or a string, else null. */
    private final PbBytesWriter[] strings;
    /** The most bytes a row writes besides its string values. */
    private final int rowOverhead;

    private PbFlatMessage(PbNumberWriter[] numbers, PbBytesWriter[] strings, int rowOverhead) {
        this.numbers = numbers;
        this.strings = strings;
        this.rowOverhead = rowOverhead;
    }

    /** The fast path for {@code byNumber} (writers in field-number order), or null if a writer does not fit it. */
    static PbFlatMessage of(PbWriter[] byNumber) {
        PbNumberWriter[] numbers = new PbNumberWriter[byNumber.length];
        PbBytesWriter[] strings = new PbBytesWriter[byNumber.length];
        int rowOverhead = 0;
        for (int i = 0; i < byNumber.length; i++) {
            PbWriter writer = byNumber[i];
            if (writer.required()) {
                return null;
            } else if (writer instanceof PbNumberWriter number) {
                numbers[i] = number;
                rowOverhead += number.maxFieldBytes();
            } else if (writer instanceof PbBytesWriter string) {
                strings[i] = string;
                rowOverhead += string.maxFieldBytes();
            } else {
                return null;
            }
        }
        return new PbFlatMessage(numbers, strings, rowOverhead);
    }

    /**
     * Writes rows {@code [0, rows)} of the bound batch as records, or returns false (having written
     * nothing) if the batch needs the general path: a string column with malformed UTF-8 to re-encode,
     * or more bytes than one array holds.
     */
    boolean writeBatch(ByteOutput out, int rows) {
        long bound = (long) rows * rowOverhead;
        for (PbBytesWriter string : strings) {
            if (string != null) {
                if (!string.plain()) {
                    return false;
                }
                bound += string.valueBytes();
            }
        }
        if (bound > Integer.MAX_VALUE - 16) {
            return false;
        }
        out.ensure((int) bound);
        PbNumberWriter[] numbers = this.numbers;
        PbBytesWriter[] strings = this.strings;
        for (int row = 0; row < rows; row++) {
            out.startRecord(row);
            for (int f = 0; f < numbers.length; f++) {
                PbNumberWriter number = numbers[f];
                if (number != null) {
                    number.putField(out, row);
                } else {
                    strings[f].putField(out, row);
                }
            }
            out.endRecord();
        }
        return true;
    }
}
