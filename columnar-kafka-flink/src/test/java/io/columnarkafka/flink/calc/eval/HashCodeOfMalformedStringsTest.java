package io.columnarkafka.flink.calc.eval;

import static io.columnarkafka.flink.calc.eval.StringVectors.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import io.columnarkafka.format.RowTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.functions.SqlFunctionUtils;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * HASH_CODE of strings whose bytes are not all valid UTF-8, which Flink SQL's external rows cannot carry (they
 * would be decoded and encoded again): each value's hash against what Flink 2.2.1's generated code computes for the
 * same bytes, {@code SqlFunctionUtils.hashCode(string.toString())} of a {@code BinaryStringData} over them
 * ({@code StringCallGen.generateHashCode}). Valid strings are compared with Flink SQL in {@code
 * CalcParityProperties#hashCodes}.
 */
class HashCodeOfMalformedStringsTest {
    private static final RowType INPUT = RowTypes.parse("ROW<s STRING>");
    private static final int RANDOM_VALUES = 20_000;

    @Test
    void malformedAndMixedBytesHashAsFlinksDecodedString() throws Exception {
        List<byte[]> values = new ArrayList<>(List.of(
                bytes(), bytes(0x80), bytes(0xbf, 0x41), bytes(0xc0, 0x80), bytes(0xc1, 0xbf), bytes(0xc3),
                bytes(0x41, 0xc3), bytes(0xe2, 0x82), bytes(0xe2, 0x82, 0x41), bytes(0xed, 0xa0, 0x80),
                bytes(0xed, 0xbf, 0xbf), bytes(0xf0, 0x9f, 0x98, 0x80), bytes(0xf0, 0x9f, 0x98), bytes(0xf4, 0x90, 0x80, 0x80),
                bytes(0xf5, 0x80, 0x80, 0x80), bytes(0xf8, 0x88, 0x80, 0x80, 0x80), bytes(0xfe), bytes(0xff),
                bytes(0xe0, 0x80, 0x80), bytes(0xc3, 0xa9, 0x80), bytes(0x7f, 0x00, 0x41)));
        Random random = new Random(20261204L);
        for (int v = 0; v < RANDOM_VALUES; v++) {
            byte[] value = new byte[random.nextInt(9)];
            for (int k = 0; k < value.length; k++) {
                // mostly bytes of the high half, where sequences start, continue or are invalid
                value[k] = (byte) (random.nextInt(4) == 0 ? random.nextInt(0x80) : 0x80 + random.nextInt(0x80));
            }
            values.add(value);
        }
        Expr hash = new Expr.Call(Op.HASH_CODE, List.of(new Expr.Column(0, INPUT.getTypeAt(0))), new IntType());
        CalcPlan plan = CalcPlan.compile(new CalcProgram(INPUT, List.of(hash), List.of("h"), null));
        int compared = 0;
        int notAscii = 0;
        try (BufferAllocator allocator = new RootAllocator();
                VarCharVector strings = StringVectors.of(allocator, values)) {
            VectorSchemaRoot root = VectorSchemaRoot.of(strings);
            plan.filter(root, null, 0);
            try (FieldVector projected = plan.project(0, "h", allocator)) {
                IntVector hashes = (IntVector) projected;
                for (int r = 0; r < values.size(); r++) {
                    byte[] value = values.get(r);
                    Integer flinks = SqlFunctionUtils.hashCode(BinaryStringData.fromBytes(value).toString());
                    assertThat(hashes.get(r)).as("HASH_CODE of bytes %s", java.util.Arrays.toString(value))
                            .isEqualTo(flinks);
                    compared++;
                    notAscii += Utf8.isAscii(value, 0, value.length) ? 0 : 1;
                }
            }
        }
        assertThat(compared).isEqualTo(values.size());
        assertThat(notAscii).as("values with a non-ASCII byte").isGreaterThan(RANDOM_VALUES * 3 / 4);
    }
}
