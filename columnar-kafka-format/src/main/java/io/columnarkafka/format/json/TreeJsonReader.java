package io.columnarkafka.format.json;

import java.math.BigDecimal;
import org.apache.arrow.vector.FieldVector;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * A value as Flink's tree deserializer reads it ({@code JsonRowDataDeserializationSchema} with {@code
 * JsonToRowDataConverters}, inside the changelog JSON formats): Jackson parses the record into a tree first and
 * each converter sees a whole node. Where a node's value differs from the streaming token the JSON decoder's
 * readers reproduce, this reader hands its reader the node's view, then delegates:
 * <ul>
 *   <li>a number is its node's text: integers canonical ({@code -0} is {@code 0}), floats a {@code BigDecimal}
 *       with trailing zeros stripped when the row type holds a DECIMAL ({@code USE_BIG_DECIMAL_FOR_FLOATS}),
 *       else a double ({@code Double.toString}; a FLOAT column takes the double cast to float); an INT or
 *       BIGINT column takes a {@code BigDecimal} node truncated when it is in range;</li>
 *   <li>an object or array given to a scalar column is the empty text ({@code asText()}): false for
 *       BOOLEAN, a failure for the others; a STRING column keeps its JSON text; a MAP column makes anything
 *       but an object an empty map ({@code fields()}); ROW and ARRAY fail on the other structure;</li>
 *   <li>a DECIMAL string is not trimmed ({@code new BigDecimal(asText())});</li>
 *   <li>whatever fails, the whole value is consumed (the tree held it whole), so the row goes on after it.</li>
 * </ul>
 */
final class TreeJsonReader extends JsonReader {
    private final JsonReader inner;
    private final LogicalTypeRoot root;
    private final boolean bigDecimalFloats;

    TreeJsonReader(JsonReader inner, LogicalTypeRoot root, boolean bigDecimalFloats) {
        super(inner.path, inner.ignoreParseErrors);
        this.inner = inner;
        this.root = root;
        this.bigDecimalFloats = bigDecimalFloats;
    }

    @Override
    void bind(FieldVector vector) {
        inner.bind(vector);
        count = inner.count;
    }

    @Override
    void readValue(JsonTokenizer t) {
        value(t, false);
    }

    /**
     * As {@link #readValue}, writing nothing: Flink's tree row converter converts every field of its row type,
     * read or not, so a field nobody reads fails (or, under {@code ignore-parse-errors}, nulls) as a read one.
     */
    @Override
    void checkValue(JsonTokenizer t) {
        value(t, true);
    }

    private void value(JsonTokenizer t, boolean check) {
        int token = t.current();
        boolean structure = token == JsonTokenizer.START_OBJECT || token == JsonTokenizer.START_ARRAY;
        int depth = t.depth() - (structure ? 1 : 0);
        try {
            read(t, token, structure, check);
        } catch (RuntimeException e) {
            while (t.depth() > depth) {
                t.next();
            }
            throw e;
        } finally {
            count = inner.count;
        }
    }

    private void read(JsonTokenizer t, int token, boolean structure, boolean check) {
        switch (root) {
            case ROW:
            case ARRAY:
                if (token == (root == LogicalTypeRoot.ROW ? JsonTokenizer.START_ARRAY : JsonTokenizer.START_OBJECT)) {
                    JsonRowFields.skipValue(t);
                    throw new JsonReadException("Illegal JSON " + (root == LogicalTypeRoot.ROW ? "object" : "array")
                            + " data: the node is an " + (root == LogicalTypeRoot.ROW ? "array" : "object"));
                }
                break;
            case MAP:
            case MULTISET:
                if (token != JsonTokenizer.START_OBJECT) {
                    if (structure) {
                        JsonRowFields.skipValue(t);
                    }
                    if (!check) {
                        ((MapJsonReader) inner).appendEmpty();
                    }
                    return;
                }
                break;
            case CHAR:
            case VARCHAR:
                if (!structure) {
                    presentNumberNode(t, token);
                }
                break;
            case DECIMAL:
                if (structure) {
                    JsonRowFields.skipValue(t);
                    t.presentAsString("");
                } else if (token == JsonTokenizer.VALUE_STRING) {
                    String text = t.text();
                    if (!text.trim().equals(text)) {
                        throw new JsonReadException("NumberFormatException: Character array is missing \"exponent\""
                                + " mark 'e' or 'E'. (a DECIMAL text is not trimmed: '" + text + "')");
                    }
                }
                break;
            case INTEGER:
            case BIGINT:
                if (structure) {
                    JsonRowFields.skipValue(t);
                    t.presentAsString("");
                } else if (token == JsonTokenizer.VALUE_NUMBER_FLOAT && bigDecimalFloats) {
                    presentTruncated(t);
                }
                break;
            case TINYINT:
            case SMALLINT:
            case FLOAT:
            case DOUBLE:
                if (structure) {
                    JsonRowFields.skipValue(t);
                    t.presentAsString("");
                } else {
                    presentNumberNode(t, token);
                }
                break;
            default:
                // BOOLEAN (a number's text is never "true"), DATE, TIME, the timestamps (a number's text never
                // parses): only a structure differs.
                if (structure) {
                    JsonRowFields.skipValue(t);
                    t.presentAsString("");
                }
        }
        if (check) {
            inner.checkValue(t);
        } else {
            inner.readValue(t);
        }
    }

    /**
     * A number token as its tree node's text, where the column's reader would make something else of the
     * token's: {@code -0}; for DOUBLE and FLOAT, a negative zero {@code BigDecimal} (which has no sign) and the
     * double node a FLOAT column casts; for STRING, TINYINT and SMALLINT, any float node's text.
     */
    private void presentNumberNode(JsonTokenizer t, int token) {
        if (token == JsonTokenizer.VALUE_NUMBER_INT) {
            if (negativeZero(t)) {
                t.presentAsString("0");
            }
            return;
        }
        if (token != JsonTokenizer.VALUE_NUMBER_FLOAT) {
            return;
        }
        if (root == LogicalTypeRoot.DOUBLE || root == LogicalTypeRoot.FLOAT) {
            if (bigDecimalFloats) {
                if (t.prepareText() && t.buffer()[t.textStart()] == '-' && new BigDecimal(t.text()).signum() == 0) {
                    t.presentAsString("0");
                }
            } else if (root == LogicalTypeRoot.FLOAT) {
                t.presentAsString(Float.toString((float) Double.parseDouble(t.text())));
            }
            return;
        }
        String text = t.text();
        t.presentAsString(bigDecimalFloats ? new BigDecimal(text).stripTrailingZeros().toString()
                : Double.toString(Double.parseDouble(text)));
    }

    /** An integer token {@code -0}, whose node is the integer 0. */
    private static boolean negativeZero(JsonTokenizer t) {
        t.prepareText();
        byte[] b = t.buffer();
        return t.textEnd() - t.textStart() == 2 && b[t.textStart()] == '-' && b[t.textStart() + 1] == '0';
    }

    /** {@code canConvertToInt/Long} then {@code asInt/asLong} of a {@code DecimalNode}: truncated in range. */
    private void presentTruncated(JsonTokenizer t) {
        BigDecimal value = new BigDecimal(t.text());
        boolean inRange = root == LogicalTypeRoot.INTEGER
                ? value.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
                        && value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0
                : value.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                        && value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
        t.presentAsString(inRange ? value.toBigInteger().toString() : value.stripTrailingZeros().toString());
    }

    @Override
    void appendNull() {
        inner.appendNull();
        count = inner.count;
    }

    @Override
    void truncate(int entries) {
        inner.truncate(entries);
        count = inner.count;
    }

    @Override
    boolean reordersInPlace() {
        return inner.reordersInPlace();
    }

    @Override
    void reorder(int start, int read, int[] from, int size, EntryReorder reorder) {
        inner.reorder(start, read, from, size, reorder);
        count = inner.count;
    }
}
