package io.columnarkafka.flink.calc.eval;

import static io.columnarkafka.flink.calc.eval.StringVectors.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import io.columnarkafka.format.RowTypes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/**
 * UPPER and LOWER ({@link CaseConversion}) against Flink 2.2.1's own conversion of the same bytes, {@code
 * BinaryStringData#toUpperCase()} / {@code toLowerCase()} (what {@code StringCallGen} generates for them): every code
 * point of Unicode alone, after a letter and between letters (a final sigma and a sigma inside a word among them),
 * random strings of the code points whose case Java's special casing or context decides (sharp s, dotted capital I,
 * sigma, ligatures, Armenian, Georgian, Deseret, Adlam) beside ASCII and emoji, and malformed UTF-8.
 */
class CaseConversionTest {
    private static final RowType INPUT = RowTypes.parse("ROW<s STRING>");
    private static final int BATCH = 1 << 16;
    private static final int[] SPECIAL = {0x00DF, 0x0130, 0x0131, 0x03A3, 0x03C2, 0x03C3, 0x0345, 0x1E9E, 0xFB00,
        0xFB03, 0x0587, 0x1F80, 0x1FB3, 0x10D0, 0x1C90, 0x01C5, 0x0149, 0x01F0, 0x0390, 0x10400, 0x10428, 0x1E900,
        0x1E922, 0x1F600, 0x0391, 0x03B1, 0x00E9, 0x00C9, 0x0041, 0x0061, 0x0020, 0x002E, 0x0301, 0x2126, 0x212A};

    @Test
    void everyCodePointAloneAfterALetterAndBetweenLettersConvertsAsFlinks() throws Exception {
        List<byte[]> values = new ArrayList<>();
        int compared = 0;
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                continue;
            }
            String c = new String(Character.toChars(cp));
            values.add(utf8(c));
            values.add(utf8("\u0391" + c)); // after a Greek capital alpha: a sigma here ends a word
            values.add(utf8("a" + c + "\u03A3b")); // between letters, and a sigma inside a word after it
            if (values.size() >= BATCH) {
                compared += assertSameAsFlinks(values);
                values.clear();
            }
        }
        compared += assertSameAsFlinks(values);
        assertThat(compared).as("strings compared, each both ways").isEqualTo(3 * (Character.MAX_CODE_POINT + 1 - 2048));
    }

    @Test
    void randomStringsOfSpecialCasesConvertAsFlinks() throws Exception {
        Random random = new Random(20261207L);
        List<byte[]> values = new ArrayList<>();
        for (int v = 0; v < 50_000; v++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(9);
            for (int k = 0; k < length; k++) {
                if (random.nextInt(5) == 0) {
                    s.append(random.nextBoolean() ? ' ' : (char) ('A' + random.nextInt(26)));
                } else {
                    s.appendCodePoint(SPECIAL[random.nextInt(SPECIAL.length)]);
                }
            }
            values.add(utf8(s.toString()));
        }
        assertThat(assertSameAsFlinks(values)).isEqualTo(values.size());
    }

    @Test
    void malformedUtf8ConvertsAsFlinksDecodedString() throws Exception {
        List<byte[]> values = new ArrayList<>(List.of(bytes(0x80), bytes(0xc3), bytes(0x41, 0xc3), bytes(0xc0, 0x80),
                bytes(0xe2, 0x82), bytes(0xed, 0xa0, 0x80), bytes(0xc3, 0xa9, 0xed, 0xbf, 0xbf), bytes(0xe0, 0x80, 0x80),
                bytes(0xf0, 0x8f, 0xbf, 0xbf), bytes(0xf4, 0x90, 0x80, 0x80), bytes(0xf5, 0x80, 0x80, 0x80), bytes(0xff),
                bytes(0xc3, 0xa9, 0x80), bytes(0xce, 0xa3, 0xc3)));
        Random random = new Random(20261208L);
        for (int v = 0; v < 20_000; v++) {
            byte[] value = new byte[random.nextInt(9)];
            for (int k = 0; k < value.length; k++) {
                value[k] = (byte) (random.nextInt(3) == 0 ? 'a' + random.nextInt(26) : 0x80 + random.nextInt(0x80));
            }
            values.add(value);
        }
        assertThat(assertSameAsFlinks(values)).isEqualTo(values.size());
    }

    /** UPPER and LOWER of each value against Flink's; the number of values compared. */
    private static int assertSameAsFlinks(List<byte[]> values) throws UnsupportedExpressionException {
        try (BufferAllocator allocator = new RootAllocator();
                VarCharVector strings = StringVectors.of(allocator, values)) {
            VectorSchemaRoot root = VectorSchemaRoot.of(strings);
            Expr column = new Expr.Column(0, INPUT.getTypeAt(0));
            VarCharType type = new VarCharType(VarCharType.MAX_LENGTH);
            CalcPlan plan = CalcPlan.compile(new CalcProgram(INPUT,
                    List.of(new Expr.Call(Op.UPPER, List.of(column), type),
                            new Expr.Call(Op.LOWER, List.of(column), type)),
                    List.of("upper", "lower"), null));
            plan.filter(root, null, 0);
            try (FieldVector upper = plan.project(0, "upper", allocator);
                    FieldVector lower = plan.project(1, "lower", allocator)) {
                for (int r = 0; r < values.size(); r++) {
                    byte[] value = values.get(r);
                    BinaryStringData flinks = BinaryStringData.fromBytes(value);
                    assertThat(((VarCharVector) upper).get(r)).as("UPPER of %s", Arrays.toString(value))
                            .isEqualTo(flinks.toUpperCase().toBytes());
                    assertThat(((VarCharVector) lower).get(r)).as("LOWER of %s", Arrays.toString(value))
                            .isEqualTo(flinks.toLowerCase().toBytes());
                }
            }
        }
        return values.size();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
