package io.columnarkafka.format.csv;

import java.util.Arrays;

/**
 * Splits the first line of a CSV record into its values exactly as Flink's Jackson CSV parser reads a
 * record into a row (jackson-dataformat-csv 2.18 with the schema Flink builds: no header, no trimming,
 * trailing comma allowed): quoted values with doubled quotes, the escape character anywhere ({@code 0 n
 * r t} become NUL, LF, CR, TAB), CR, LF or CRLF ending the record, anything after the first line ignored,
 * with {@code allow-comments} blank lines, spaces and {@code #} lines skipped before the record. Values
 * are unescaped into one reused buffer.
 */
final class CsvRecordTokens {
    /** A record Jackson cannot read (not a value Flink's converters reject). */
    static final class Malformed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Malformed(String reason) {
            super(reason, null, false, false);
        }
    }

    private final char separator;
    private final int quote;
    private final int escape;
    private final boolean allowComments;
    private final int columns;

    char[] text = new char[256];
    int[] starts = new int[16];
    int[] ends = new int[16];
    int count;

    private char[] in;
    private int end;
    private int pos;
    private int out;
    /** The last value ended the record (line end or end of input): the next read finds no value. */
    private boolean recordEnded;

    CsvRecordTokens(CsvFormatOptions options, int columns) {
        this.separator = options.fieldDelimiter();
        this.quote = options.quoteCharacter();
        this.escape = options.escapeCharacter();
        this.allowComments = options.allowComments();
        this.columns = columns;
    }

    /**
     * Reads the values of the record in {@code chars[0, length)}.
     *
     * @throws Malformed where Jackson fails: no content, too many values, a missing closing quote, a
     *     character after a closing quote, an escape at the end
     */
    void read(char[] chars, int length) {
        in = chars;
        end = length;
        pos = 0;
        out = 0;
        count = 0;
        recordEnded = false;
        if (allowComments) {
            skipCommentLines();
        }
        if (pos >= end) {
            throw new Malformed("No content to map due to end-of-input");
        }
        while (nextValue()) {
            if (count > columns) {
                handleExtra();
                return;
            }
        }
    }

    /** Jackson accepts one extra value if it is blank and ends the record (a trailing comma). */
    private void handleExtra() {
        int extra = count - 1;
        String value = new String(text, starts[extra], ends[extra] - starts[extra]);
        if (value.trim().isEmpty() && !nextValue()) {
            count = columns;
            return;
        }
        throw new Malformed(String.format("Too many entries: expected at most %d (value #%d (%d chars) \"%s\")",
                columns, columns, value.length(), value));
    }

    private void skipCommentLines() {
        while (pos < end) {
            char ch = in[pos];
            if (ch == '#') {
                pos++;
                while (pos < end) {
                    char c = in[pos++];
                    if (c == '\r' || c == '\n') {
                        lineFeed(c);
                        break;
                    }
                }
            } else if (ch == '\r' || ch == '\n') {
                pos++;
                lineFeed(ch);
            } else if (ch == ' ') {
                pos++;
            } else {
                return;
            }
        }
    }

    /** After a CR, a following LF belongs to the same line end. */
    private void lineFeed(char c) {
        if (c == '\r' && pos < end && in[pos] == '\n') {
            pos++;
        }
    }

    /** Reads the next value into the buffer; false at the end of the record. */
    private boolean nextValue() {
        if (recordEnded) {
            return false;
        }
        int start = out;
        if (pos >= end) {
            recordEnded = true; // end of input right after a separator: one empty value
            return add(start);
        }
        char c = in[pos++];
        if (c == '\r' || c == '\n') {
            recordEnded = true;
            return add(start);
        }
        if (c == quote) {
            quoted();
            return add(start);
        }
        if (c == separator) {
            return add(start);
        }
        if (c == escape) {
            put(unescape());
        } else {
            put(c);
        }
        while (pos < end) {
            c = in[pos++];
            if (c == separator) {
                return add(start);
            }
            if (c == '\r' || c == '\n') {
                recordEnded = true;
                return add(start);
            }
            put(c == escape ? unescape() : c);
        }
        recordEnded = true;
        return add(start);
    }

    private void quoted() {
        while (true) {
            if (pos >= end) {
                throw new Malformed("Missing closing quote for value");
            }
            char c = in[pos++];
            if (c == quote) {
                if (pos < end && in[pos] == quote) {
                    put(c);
                    pos++;
                    continue;
                }
                break;
            }
            put(c == escape ? unescape() : c);
        }
        while (pos < end) {
            char c = in[pos++];
            if (c == separator) {
                return;
            }
            if (c <= ' ') {
                if (c == '\r' || c == '\n') {
                    recordEnded = true;
                    return;
                }
                continue;
            }
            throw new Malformed("Unexpected character ('" + c + "' (code " + (int) c
                    + ")): Expected column separator character or end-of-line");
        }
        recordEnded = true;
    }

    private char unescape() {
        if (pos >= end) {
            throw new Malformed("Unexpected EOF in escaped character");
        }
        char c = in[pos++];
        switch (c) {
            case '0':
                return '\0';
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            default:
                return c;
        }
    }

    private void put(char c) {
        if (out == text.length) {
            text = Arrays.copyOf(text, text.length * 2);
        }
        text[out++] = c;
    }

    private boolean add(int start) {
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            ends = Arrays.copyOf(ends, count * 2);
        }
        starts[count] = start;
        ends[count] = out;
        count++;
        return true;
    }
}
