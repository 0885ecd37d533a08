package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Flink's internal {@code HASH_CODE} of an INT, BIGINT or VARCHAR, the bucket of the split distinct aggregate's
 * partial phase ({@code MOD(HASH_CODE(col), bucket-num)}); null for a null operand. Flink 2.2.1 generates, for an
 * INT or BIGINT, {@code HashCodeCallGen}'s {@code CodeGenUtils.hashCodeForType}: {@code Integer.hashCode(v)}, the
 * value itself, and {@code Long.hashCode(v)}, {@code (int) (v ^ (v >>> 32))}; for a character string, {@code
 * StringCallGen.generateHashCode}'s {@code SqlFunctionUtils.hashCode(s.toString())}: {@code Math.abs} of the Java
 * (UTF-16) String's hash of {@code BinaryStringData.toString()}, which decodes the UTF-8 bytes with {@code
 * StringUtf8Utils.decodeUTF8}. An ASCII byte is one UTF-16 unit of the same value, so ASCII bytes are hashed in place
 * as {@code String.hashCode} hashes units; a value with any other byte is made a String by that same Flink code, a
 * {@code BinaryStringData} over the bytes and its {@code toString()} (its handling of malformed bytes included), one
 * String per such value, as Flink makes one per row.
 */
final class HashCode extends UnaryNode {
    private final LogicalTypeRoot operandType;

    HashCode(Node operand, LogicalType type) {
        super(operand, type);
        this.operandType = operand.type.getTypeRoot();
    }

    @Override
    void computeRows(Column in, int[] sel, int n) {
        switch (operandType) {
            case INTEGER -> hashInts(in, sel, n);
            case BIGINT -> hashLongs(in, sel, n);
            case VARCHAR -> hashStrings(in, sel, n);
            default -> throw new IllegalStateException("HASH_CODE of " + operandType);
        }
    }

    private void hashInts(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            out.nulls[i] = in.nulls[i];
            if (!in.nulls[i]) {
                out.longs[i] = (int) in.longs[i];
            }
        }
    }

    private void hashLongs(Column in, int[] sel, int n) {
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            out.nulls[i] = in.nulls[i];
            if (!in.nulls[i]) {
                out.longs[i] = Long.hashCode(in.longs[i]);
            }
        }
    }

    private void hashStrings(Column in, int[] sel, int n) {
        byte[] bytes = in.bytes;
        for (int k = 0; k < n; k++) {
            int i = sel[k];
            out.nulls[i] = in.nulls[i];
            if (!in.nulls[i]) {
                out.longs[i] = Math.abs(javaStringHash(bytes, in.starts[i], in.lengths[i]));
            }
        }
    }

    /** {@code String.hashCode} of the String Flink's {@code BinaryStringData.toString()} makes of the bytes. */
    private static int javaStringHash(byte[] bytes, int start, int length) {
        int hash = 0;
        for (int at = start, end = start + length; at < end; at++) {
            byte b = bytes[at];
            if (b < 0) {
                return BinaryStringData.fromBytes(bytes, start, length).toString().hashCode();
            }
            hash = 31 * hash + b;
        }
        return hash;
    }
}
