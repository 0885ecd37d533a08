package io.columnarkafka.flink.calc.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.regex.Pattern;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.functions.SqlFunctionUtils;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * {@link RegexpExtract} on patterns of the {@link KeyValuePattern} shape, matched without Java's regex, against
 * Flink's {@code SqlFunctionUtils#regexpExtract} (what its generated code calls) on the string Flink decodes from the
 * same bytes: strings built of the keys, separators and stops next to and inside each other, at the start and the
 * end, with non-ASCII and malformed UTF-8 bytes, every group index from -1 to 3. The whole calc over Flink's
 * generated code covers the shape too ({@code CalcCases#strings}).
 */
class KeyValuePatternProperties {
    /** Each pattern with the pieces its strings are made of: its separator, key, parts of the key, stops. */
    private static final String[][] REGEXES_AND_PIECES = {
        {"(&|^)channel_id=([^&]*)", "&", "channel_id=", "channel_id", "="},
        {"(^|&)k=([^&;]*)", "&", "k=", "k", ";"},
        {"(a|^)aa([^a]*)", "a", "aa", "b"},
        {"(^|a)aa([^a]*)", "a", "aa", "b"},
        {"(;|^)x y([^; #]*)", ";", "x y", "x", " ", "#"}};
    /** Pieces every string may hold: digits, non-ASCII (a non-BMP one, the Kelvin sign) and a separator after it. */
    private static final String[] COMMON_PIECES = {"1", "\u00e9", "\uD83D\uDE00", "\u212A", "\u00e9&a;"};
    private static final int ROWS = 400;

    @Example
    void theShapeIsReadOnlyWhereEveryCharacterStandsForItself() {
        for (String[] regexAndPieces : REGEXES_AND_PIECES) {
            assertThat(KeyValuePattern.of(regexAndPieces[0])).as(regexAndPieces[0]).isNotNull();
        }
        for (String regex : new String[] {"(&|^)channel_id=([^&]*)x", "(&|$)k([^&]*)", "(&|^)k([^&&a]*)",
            "(&|^)k([^a-z]*)", "(&|^)k.([^&]*)", "(&|^)k([^&]+)", "(&&|^)k([^&]*)", "(&|^)([^&]*)", "(&|^)k([^]*)",
            "(\\&|^)k([^&]*)", "(&|^)k([^\\d]*)", "(?:&|^)k([^&]*)", "&|^k([^&]*)"}) {
            assertThat(KeyValuePattern.of(regex)).as(regex).isNull();
        }
    }

    @Property(tries = 30)
    void extractsWhatFlinkExtracts(@ForAll long seed) {
        Random random = new Random(seed);
        int compared = 0;
        int matched = 0;
        int atStart = 0;
        try (BufferAllocator allocator = new RootAllocator(); IntVector rows = new IntVector("rows", allocator)) {
            rows.allocateNew(ROWS);
            rows.setValueCount(ROWS);
            VectorSchemaRoot root = VectorSchemaRoot.of(rows);
            InputBatch batch = new InputBatch();
            int[] all = new int[ROWS];
            Arrays.setAll(all, r -> r);
            for (String[] regexAndPieces : REGEXES_AND_PIECES) {
                String regex = regexAndPieces[0];
                byte[][] strings = new byte[ROWS][];
                for (int r = 0; r < ROWS; r++) {
                    strings[r] = random.nextInt(20) == 0 ? null : string(random, regexAndPieces);
                }
                for (int group = -1; group <= 3; group++) {
                    RegexpExtract extract = new RegexpExtract(new Strings(strings), Pattern.compile(regex), group,
                            VarCharType.STRING_TYPE);
                    assertThat(extract.matchesWithoutRegex()).as(regex).isTrue();
                    batch.bind(root);
                    extract.evaluate(batch, all, ROWS);
                    for (int r = 0; r < ROWS; r++) {
                        byte[] expected = flinks(strings[r], regex, group);
                        byte[] actual = extract.out.nulls[r] ? null : Arrays.copyOfRange(extract.out.bytes,
                                extract.out.starts[r], extract.out.starts[r] + extract.out.lengths[r]);
                        assertThat(actual).as("%s group %d of row %d %s", regex, group, r, describe(strings[r]))
                                .isEqualTo(expected);
                        compared++;
                        matched += expected != null ? 1 : 0;
                        atStart += group == 1 && expected != null && expected.length == 0 ? 1 : 0;
                    }
                }
            }
        }
        assertThat(compared).isEqualTo(ROWS * REGEXES_AND_PIECES.length * 5);
        assertThat(matched).as("values found").isGreaterThan(compared / 8);
        assertThat(atStart).as("matches at the anchor").isGreaterThan(ROWS / 10);
    }

    /** Flink's generated code: the argument decoded as {@code BinaryStringData#toString}, the result encoded back. */
    private static byte[] flinks(byte[] string, String regex, int group) {
        if (string == null) {
            return null;
        }
        String found = SqlFunctionUtils.regexpExtract(BinaryStringData.fromBytes(string).toString(), regex, group);
        return found == null ? null : BinaryStringData.fromString(found).toBytes();
    }

    private static byte[] string(Random random, String[] regexAndPieces) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(9); i > 0; i--) {
            text.append(random.nextInt(4) == 0 ? COMMON_PIECES[random.nextInt(COMMON_PIECES.length)]
                    : regexAndPieces[1 + random.nextInt(regexAndPieces.length - 1)]);
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0 && random.nextInt(6) == 0) {
            // a lone lead or continuation byte, or a sequence cut short, before an ASCII byte or the end
            bytes[random.nextInt(bytes.length)] = (byte) (0x80 + random.nextInt(0x78));
        }
        return bytes;
    }

    private static String describe(byte[] string) {
        return string == null ? "null" : Arrays.toString(string);
    }

    /** The strings of a batch as an operand. */
    private static final class Strings extends Node {
        private final byte[][] values;

        Strings(byte[][] values) {
            super(VarCharType.STRING_TYPE);
            this.values = values;
        }

        @Override
        void compute(InputBatch batch, int[] sel, int n) {
            for (int k = 0; k < n; k++) {
                int r = sel[k];
                if (values[r] == null) {
                    out.nulls[r] = true;
                } else {
                    out.appendString(r, values[r], 0, values[r].length);
                }
            }
        }
    }
}
