package io.columnarkafka.format.json;

import io.columnarkafka.format.arrow.Utf8Scan;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * A streaming JSON tokenizer over one record's bytes that yields exactly the token stream of the
 * parser inside Flink 2.2's {@code JsonParserRowDataDeserializationSchema} (shaded Jackson 2.18's
 * {@code UTF8StreamJsonParser} with {@code ALLOW_UNESCAPED_CONTROL_CHARS}), including where it fails and
 * where it stands after a failure. Flink's converters consume tokens in ways that depend on both (a value
 * of the wrong shape under {@code ignore-parse-errors} leaves the parser inside it), so the readers here
 * mirror those converters over this token stream.
 *
 * <p>What it reproduces: the token order (a field name and its scalar value are scanned together, a
 * value's nested scope opens when the value is returned), lazy strings (a string value is checked and
 * decoded only when its text is asked for, or when the next token skips it), the strict number grammar,
 * the literal end check, the nesting limit (1000) and number length limit (1000 digits) of Jackson's
 * default {@code StreamReadConstraints}, and Jackson's leniency about UTF-8 (overlong forms and encoded
 * surrogates are decoded, not rejected).
 *
 * <p>Fast path: a name or string that is plain (no escape, strictly valid UTF-8) is never decoded: its
 * bytes are exactly what Flink's {@code StringData} holds, and readers copy them from {@link #buffer()}.
 * A string value with escapes that a reader stores as UTF-8 ({@link #prepareUtf8()}) is decoded straight
 * into UTF-8: runs of plain bytes copied in bulk, escapes decoded by table. Anything else (a lone
 * surrogate escape, UTF-8 that is not strictly valid, any error) is decoded char by char as Jackson does
 * ({@link #text()}).
 *
 * <p>Not thread-safe; reset for every record.
 */
final class JsonTokenizer {
    static final int NONE = 0;
    static final int START_OBJECT = 1;
    static final int END_OBJECT = 2;
    static final int START_ARRAY = 3;
    static final int END_ARRAY = 4;
    static final int FIELD_NAME = 5;
    static final int VALUE_STRING = 6;
    static final int VALUE_NUMBER_INT = 7;
    static final int VALUE_NUMBER_FLOAT = 8;
    static final int VALUE_TRUE = 9;
    static final int VALUE_FALSE = 10;
    static final int VALUE_NULL = 11;

    private static final String[] TOKEN_NAMES = {
        "NONE", "START_OBJECT", "END_OBJECT", "START_ARRAY", "END_ARRAY", "FIELD_NAME", "VALUE_STRING",
        "VALUE_NUMBER_INT", "VALUE_NUMBER_FLOAT", "VALUE_TRUE", "VALUE_FALSE", "VALUE_NULL"
    };
    /** Jackson's getText() of the tokens whose text is fixed. */
    private static final String[] FIXED_TEXT = {null, "{", "}", "[", "]", null, null, null, null, "true", "false", "null"};

    /** Jackson 2.18's default {@code StreamReadConstraints}. */
    static final int MAX_NESTING_DEPTH = 1000;
    static final int MAX_NUMBER_LENGTH = 1000;

    /** By the byte after a backslash: the byte a one-letter escape stands for, or 0. */
    private static final byte[] SIMPLE_ESCAPES = new byte[128];
    /** By a byte (unsigned): its value as a hex digit, or -1. */
    private static final byte[] HEX_VALUES = new byte[256];

    static {
        SIMPLE_ESCAPES['"'] = '"';
        SIMPLE_ESCAPES['\\'] = '\\';
        SIMPLE_ESCAPES['/'] = '/';
        SIMPLE_ESCAPES['b'] = '\b';
        SIMPLE_ESCAPES['t'] = '\t';
        SIMPLE_ESCAPES['n'] = '\n';
        SIMPLE_ESCAPES['f'] = '\f';
        SIMPLE_ESCAPES['r'] = '\r';
        Arrays.fill(HEX_VALUES, (byte) -1);
        for (int c = 0; c < 128; c++) {
            int digit = Character.digit(c, 16);
            if (digit >= 0) {
                HEX_VALUES[c] = (byte) digit;
            }
        }
    }

    private static final int ROOT = 0;
    private static final int ARRAY = 1;
    private static final int OBJECT = 2;

    private byte[] buf;
    private int pos;
    private int end;

    private int current;
    /** The value token scanned with the current field name (Jackson's {@code _nextToken}). */
    private int pending;
    /** A string value whose text has not been read: it starts at {@link #pos}. */
    private boolean stringIncomplete;

    private int depth;
    private int[] contextType = new int[16];
    private int[] contextIndex = new int[16];

    // The current field name: raw bytes [nameStart, nameEnd) when plain, else slowName.
    private int nameStart;
    private int nameEnd;
    private String slowName;
    /**
     * The field name the caller expects next, as its UTF-8 bytes and closing quote ({@link #expectName});
     * null when none. Used by the next {@link #next()} only.
     */
    private byte[] expectedName;
    private int expectedLength;
    /** The current field name is the one that was expected. */
    private boolean nameWasExpected;

    // The current number's or literal's bytes (scanned with a field name, so kept apart from the text).
    private int valueStart;
    private int valueEnd;

    // The current token's text: raw bytes [textStart, textEnd) when slowText is null.
    private int textStart;
    private int textEnd;
    private String slowText;
    private boolean textReady;
    /** The current string value's text is [textStart, textEnd) of {@link #utf8}, not of the record. */
    private boolean textInUtf8;
    /** A string value decoded straight into UTF-8 ({@link #prepareUtf8()}). */
    private byte[] utf8 = new byte[64];

    // The shape of the current number.
    private boolean negative;
    private int intDigits;
    /** The integer part's digits summed without a sign: exact for up to 18 digits, wrapped beyond. */
    private long intMagnitude;
    private int fractionDigits;
    private int exponentDigits;

    /** Scratch for decoded strings. */
    private final StringBuilder chars = new StringBuilder(64);

    /**
     * Starts on a new record. Its bounds are checked here, once: the word reads ({@link #word}) rely on them.
     */
    void reset(byte[] array, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, array.length);
        buf = array;
        pos = offset;
        end = offset + length;
        current = NONE;
        pending = NONE;
        stringIncomplete = false;
        depth = 0;
        contextType[0] = ROOT;
        contextIndex[0] = -1;
        textReady = false;
        textInUtf8 = false;
    }

    int current() {
        return current;
    }

    /**
     * True at the end of the input outside any scope, where {@link #next()} yields {@link #NONE} forever.
     * {@link #NONE} also comes, once, after a field whose value failed to scan (Jackson's {@code _nextToken}
     * is null then), and Flink's loops go on from there.
     */
    boolean atEnd() {
        return pos >= end && depth == 0;
    }

    static String tokenName(int token) {
        return TOKEN_NAMES[token];
    }

    byte[] buffer() {
        return buf;
    }

    /** Advances to the next token, as Jackson's {@code nextToken()}; {@link #NONE} at the end of the input. */
    int next() {
        textReady = false;
        textInUtf8 = false;
        byte[] expected = expectedName;
        expectedName = null;
        if (current == FIELD_NAME) {
            return nextAfterName();
        }
        if (stringIncomplete) {
            skipString();
        }
        int c = skipWhitespaceOrEnd();
        if (c < 0) {
            if (depth > 0) {
                throw new JsonReadException("Unexpected end-of-input: expected close marker for "
                        + (contextType[depth] == ARRAY ? "Array" : "Object"));
            }
            return current = NONE;
        }
        if (c == ']' || c == '}') {
            closeScope(c);
            return current;
        }
        if (expectComma()) {
            if (c != ',') {
                throw unexpected(c, "was expecting comma to separate " + typeDescription() + " entries");
            }
            c = skipWhitespace();
        }
        if (contextType[depth] != OBJECT) {
            return current = scanValue(c, true);
        }
        parseName(c, expected);
        current = FIELD_NAME;
        c = skipColon();
        pending = scanValue(c, false);
        return current;
    }

    /**
     * {@link #next()} when the caller expects the field name {@code quotedName} ({@link #expectName}). The common
     * case, Flink's compact JSON with its fields in schema order, takes one small step ({@link #expectedField});
     * anything else goes through {@code next()}. Kept apart from {@code next()} so that this method stays small
     * enough for the JIT to inline into the row loop while {@code next()} is compiled on its own.
     */
    int nextExpected(byte[] quotedName, int length) {
        if (current != FIELD_NAME && !stringIncomplete) {
            int c = expectedField(quotedName, length);
            if (c >= 0) {
                textReady = false;
                textInUtf8 = false;
                pending = scanValue(c, false);
                return current;
            }
        }
        expectName(quotedName, length);
        return next();
    }

    /**
     * The row loop's step over Flink's compact JSON in schema order: when the bytes after the current value are
     * exactly the expected field and the start of its value ({@code ,"name":value}, see {@link #expectedField}),
     * moves to that value, the tokenizer left exactly as {@link #nextExpected} then {@link #next()} leave it (and
     * where they fail, failing as they do), and returns true; otherwise moves nothing and returns false, for the
     * caller to go on with {@code nextExpected}. One step per field instead of two calls: through {@code
     * nextExpected} and {@code next()} the row loop called out twice per field (both compiled too big to inline).
     */
    boolean nextExpectedValue(byte[] quotedName, int length) {
        if (current == FIELD_NAME || stringIncomplete) {
            return false;
        }
        int c = expectedField(quotedName, length);
        if (c < 0) {
            return false;
        }
        textReady = false;
        textInUtf8 = false;
        expectedName = null;
        if (c == '"') {
            // a string value, the most common: what scanValue and nextAfterName do for it, without the calls
            stringIncomplete = true;
            current = VALUE_STRING;
        } else {
            pending = scanValue(c, false);
            nextAfterName();
        }
        return true;
    }

    /**
     * The common case of {@link #nextExpected} in one step: Flink writes compact JSON, its fields in schema order, so
     * the next token is mostly the expected name straight after the previous value, {@code ,"name":value} (no
     * comma before an object's first field). If the bytes are exactly that, takes the name as {@code next()}
     * would, sets the current token to {@link #FIELD_NAME} and returns the value's first byte, for the caller to
     * scan; otherwise changes nothing and returns -1 (whitespace, a comment, another name, the object's end:
     * {@code next()} reads them, with its errors). {@code expected} and {@code length} as {@link #expectName}.
     */
    private int expectedField(byte[] expected, int length) {
        if (contextType[depth] != OBJECT) {
            return -1;
        }
        byte[] b = buf;
        int index = contextIndex[depth];
        int p = pos;
        if (index >= 0) {
            if (p >= end || b[p] != ',') {
                return -1;
            }
            p++;
        }
        // '"', the name and its closing quote, ':' and the value's first byte
        if (end - p < length + 3 || b[p] != '"' || !startsWith(expected, length, p + 1) || b[p + 1 + length] != ':') {
            return -1;
        }
        int c = b[p + 2 + length] & 0xFF;
        if (c <= ' ' || c == '/') {
            return -1;
        }
        contextIndex[depth] = index + 1;
        nameStart = p + 1;
        nameEnd = p + length;
        slowName = null;
        nameWasExpected = true;
        pos = p + 3 + length;
        current = FIELD_NAME;
        return c;
    }

    /**
     * {@link #next()} where the current object ends straight after the current value (Flink's compact JSON after a
     * row's last field): closes it, the tokenizer left as {@code next()} leaves it, and returns true; anything else
     * (whitespace, a comma, a value still to be read, not in an object) moves nothing and returns false, for the
     * caller to go on with {@code next()} and its errors. Spares a row's last step the attempt at an expected name
     * and the general step's whitespace loop.
     */
    boolean nextEndsObject() {
        if (current == FIELD_NAME || stringIncomplete || pos >= end || buf[pos] != '}'
                || contextType[depth] != OBJECT) {
            return false;
        }
        textReady = false;
        textInUtf8 = false;
        expectedName = null;
        pos++;
        depth--;
        current = END_OBJECT;
        return true;
    }

    private int nextAfterName() {
        int token = pending;
        pending = NONE;
        if (token == START_ARRAY) {
            push(ARRAY);
        } else if (token == START_OBJECT) {
            push(OBJECT);
        }
        return current = token;
    }

    private boolean expectComma() {
        int index = ++contextIndex[depth];
        return contextType[depth] != ROOT && index > 0;
    }

    private String typeDescription() {
        int type = contextType[depth];
        return type == ARRAY ? "Array" : type == OBJECT ? "Object" : "root";
    }

    private void push(int type) {
        if (depth + 1 > MAX_NESTING_DEPTH) {
            throw new JsonReadException("Document nesting depth (" + (depth + 1) + ") exceeds the maximum allowed ("
                    + MAX_NESTING_DEPTH + ", from `StreamReadConstraints.getMaxNestingDepth()`)");
        }
        depth++;
        if (depth == contextType.length) {
            contextType = java.util.Arrays.copyOf(contextType, depth * 2);
            contextIndex = java.util.Arrays.copyOf(contextIndex, depth * 2);
        }
        contextType[depth] = type;
        contextIndex[depth] = -1;
    }

    private void closeScope(int c) {
        if (c == ']') {
            if (contextType[depth] != ARRAY) {
                throw mismatchedEnd(c, '}');
            }
            depth--;
            current = END_ARRAY;
        } else {
            if (contextType[depth] != OBJECT) {
                throw mismatchedEnd(c, ']');
            }
            depth--;
            current = END_OBJECT;
        }
    }

    private JsonReadException mismatchedEnd(int actual, char expected) {
        return new JsonReadException("Unexpected close marker '" + (char) actual + "': expected '" + expected + "'");
    }

    /** Scans the value starting with {@code c}; opens its scope now only outside an object (Jackson's order). */
    private int scanValue(int c, boolean openScope) {
        // strings and numbers first, in a method small enough to inline
        if (c == '"') {
            stringIncomplete = true;
            return VALUE_STRING;
        }
        if (c >= '1' && c <= '9') {
            return scanNumber(c);
        }
        return scanOtherValue(c, openScope);
    }

    private int scanOtherValue(int c, boolean openScope) {
        switch (c) {
            case '[':
                if (openScope) {
                    push(ARRAY);
                }
                return START_ARRAY;
            case '{':
                if (openScope) {
                    push(OBJECT);
                }
                return START_OBJECT;
            case 't':
                matchLiteral("true");
                return VALUE_TRUE;
            case 'f':
                matchLiteral("false");
                return VALUE_FALSE;
            case 'n':
                // three bytes compared at once: a Nexmark event's two other members are null in every record
                if (end - pos >= 3 && buf[pos] == 'u' && buf[pos + 1] == 'l' && buf[pos + 2] == 'l') {
                    pos += 3;
                    endLiteral("null", pos - 4);
                } else {
                    matchLiteral("null");
                }
                return VALUE_NULL;
            case '-':
            case '0':
                return scanFullNumber(c);
            case 'N':
                matchLiteral("NaN", 1);
                throw nonNumeric("NaN");
            case 'I':
                matchLiteral("Infinity", 1);
                throw nonNumeric("Infinity");
            case '+':
                if (pos >= end) {
                    throw new JsonReadException("Unexpected end-of-input in a Number value");
                }
                throw invalidNumberStart(buf[pos++], false);
            default:
                if (Character.isJavaIdentifierStart(c)) {
                    throw invalidToken(String.valueOf((char) c));
                }
                throw unexpected(c, "expected a valid value (JSON String, Number, Array, Object or token 'null',"
                        + " 'true' or 'false')");
        }
    }

    private void matchLiteral(String literal) {
        matchLiteral(literal, 1);
    }

    /** Matches {@code literal} from its char {@code from} on, the chars before it having been read. */
    private void matchLiteral(String literal, int from) {
        int start = pos - from;
        for (int i = from; i < literal.length(); i++) {
            if (pos >= end || buf[pos] != literal.charAt(i)) {
                throw invalidToken(literal.substring(0, i));
            }
            pos++;
        }
        endLiteral(literal, start);
    }

    /** Jackson's {@code _checkMatchEnd} after {@code literal}, whose bytes from {@code start} were just matched. */
    private void endLiteral(String literal, int start) {
        if (pos < end) {
            int c = buf[pos] & 0xFF;
            if (c >= '0' && c != ']' && c != '}' && identifierPartAt(pos)) {
                if (c >= 0x80) {
                    throw nonAsciiAfterLiteral(c);
                }
                throw invalidToken(literal);
            }
        }
        valueStart = start;
        valueEnd = pos;
    }

    /**
     * Jackson's {@code _reportInvalidToken}: for its message it consumes the characters that continue the
     * token, and the one after them (up to 256), so the parser stands after those once it failed.
     */
    private JsonReadException invalidToken(String matched) {
        StringBuilder token = new StringBuilder(matched);
        while (pos < end) {
            int c = buf[pos++] & 0xFF;
            if (c >= 0x80) {
                c = decodeForError(c);
            }
            if (!Character.isJavaIdentifierPart((char) c)) {
                break;
            }
            token.append((char) c);
            if (token.length() >= 256) {
                token.append("...");
                break;
            }
        }
        return new JsonReadException("Unrecognized token '" + token + "': was expecting (JSON String, Number, Array,"
                + " Object or token 'null', 'true' or 'false')");
    }

    /** Jackson's {@code _decodeCharForError} of a multi-byte sequence whose first byte was just read. */
    private int decodeForError(int first) {
        int needed;
        int c;
        if ((first & 0xE0) == 0xC0) {
            c = first & 0x1F;
            needed = 1;
        } else if ((first & 0xF0) == 0xE0) {
            c = first & 0x0F;
            needed = 2;
        } else if ((first & 0xF8) == 0xF0) {
            c = first & 0x07;
            needed = 3;
        } else {
            throw new JsonReadException("Invalid UTF-8 start byte 0x" + Integer.toHexString(first));
        }
        for (int i = 0; i < needed; i++) {
            c = c << 6 | continuation();
        }
        return c;
    }

    /**
     * Jackson's {@code _decodeCharForError} of the byte after a literal, which it has looked at but not
     * consumed: a byte that starts a multi-byte form (0xC0..0xF7) is read again as the sequence's second
     * byte, which is never a continuation byte, so it fails just after that byte; any other byte fails as
     * an invalid start byte before it. Where the parser then stands decides what the enclosing converters
     * read next under {@code ignore-parse-errors} (e.g. whether the next token of the enclosing object
     * finds the missing comma and fails that object too).
     */
    private JsonReadException nonAsciiAfterLiteral(int c) {
        if (c < 0xC0 || c > 0xF7) {
            return new JsonReadException("Invalid UTF-8 start byte 0x" + Integer.toHexString(c));
        }
        pos++;
        return new JsonReadException("Invalid UTF-8 middle byte 0x" + Integer.toHexString(c));
    }

    /**
     * Jackson's {@code _checkMatchEnd}: the char after a literal must not continue an identifier; a
     * non-ASCII byte always fails (see {@link #nonAsciiAfterLiteral}).
     */
    private boolean identifierPartAt(int at) {
        int c = buf[at] & 0xFF;
        return c >= 0x80 || Character.isJavaIdentifierPart(c);
    }

    /**
     * A number whose first digit {@code first} (1-9) was just read: a plain integer of up to 18 digits is scanned
     * here, in a method small enough to inline; anything else (a fraction, an exponent, more digits) by {@link
     * #scanFullNumber} from the start again.
     */
    private int scanNumber(int first) {
        byte[] b = buf;
        int p = pos;
        int limit = end;
        long magnitude;
        if (p + 7 <= limit) {
            // the first digit and the seven bytes after it as one word: its leading digits summed at once
            long word = word(b, p - 1);
            int digits = leadingDigits(word);
            magnitude = digitsValue(word, digits);
            p += digits - 1;
        } else {
            magnitude = first - '0';
        }
        // past eight digits, or near the record's end, one digit at a time
        int digit;
        while (p < limit && (digit = b[p] - '0') >= 0 && digit <= 9) {
            magnitude = magnitude * 10 + digit;
            p++;
        }
        int digits = p - pos + 1;
        if (digits > 18 || p < limit && (b[p] == '.' || b[p] == 'e' || b[p] == 'E')) {
            return scanFullNumber(first);
        }
        negative = false;
        intMagnitude = magnitude;
        intDigits = digits;
        fractionDigits = 0;
        exponentDigits = 0;
        valueStart = pos - 1;
        valueEnd = p;
        pos = p;
        return VALUE_NUMBER_INT;
    }

    /**
     * Bytes {@code [i, i + 8)} of {@code b} as a little-endian word, read without a bounds check: every caller has
     * checked that the eight bytes lie inside {@code b} (a record's bytes, whose bounds {@link #reset} checked, or a
     * name padded to whole words). A checked byte-array view cost its index check on every word, about 5 %
     * of the Bid decode's samples.
     */
    static long word(byte[] b, int i) {
        long word = MemoryUtil.getLong(b, i);
        return MemoryUtil.LITTLE_ENDIAN ? word : Long.reverseBytes(word);
    }

    /** Eight ASCII zeros as a word: subtracted from eight digits, their values. */
    static final long ASCII_ZEROS = 0x3030303030303030L;
    private static final long HIGH_NIBBLES = 0xF0F0F0F0F0F0F0F0L;

    /** How many of a little-endian word's bytes, from its first, are ASCII digits (0-8). */
    static int leadingDigits(long word) {
        return Long.numberOfTrailingZeros(notDigitBytes(word)) >>> 3;
    }

    /**
     * Bits in the high nibble of each byte of a word that is not an ASCII digit. A byte is a digit when its high
     * nibble is 3 and adding 6 leaves it 3; the addition carries only out of a byte above 0xF9, which is not a
     * digit, so only bytes after a non-digit can be disturbed.
     */
    static long notDigitBytes(long word) {
        return ((word & HIGH_NIBBLES) ^ ASCII_ZEROS) | (((word + 0x0606060606060606L) & HIGH_NIBBLES) ^ ASCII_ZEROS);
    }

    /**
     * The value of the first {@code digits} (1-8) bytes of a little-endian word, all ASCII digits, the first the
     * most significant: the digits are shifted to the word's top (the bytes below become leading zeros) and
     * combined pairwise, then in fours, then in eights, three multiplications in all instead of one per digit.
     */
    static long digitsValue(long word, int digits) {
        // no borrow crosses the digits, which are at least '0'; the bytes above them are shifted out
        long v = (word - ASCII_ZEROS) << (64 - 8 * digits);
        v = (v * 10 + (v >>> 8)) & 0x00FF00FF00FF00FFL;
        v = (v * 100 + (v >>> 16)) & 0x0000FFFF0000FFFFL;
        return (v * 10000 + (v >>> 32)) & 0xFFFFFFFFL;
    }

    /** A number from its first char {@code first} (just read) with Jackson's grammar, limits and errors. */
    private int scanFullNumber(int first) {
        int start = pos - 1;
        negative = first == '-';
        int c = first;
        if (negative) {
            if (pos >= end) {
                throw new JsonReadException("Unexpected end-of-input in a Number value");
            }
            c = buf[pos++] & 0xFF;
            if (c < '0' || c > '9') {
                throw invalidNumberStart(c, true);
            }
        }
        int digits = 1;
        if (c == '0' && pos < end && isDigit(buf[pos])) {
            throw new JsonReadException("Invalid numeric value: Leading zeroes not allowed");
        }
        // The integer part's value is summed while scanning (exact up to 18 digits, see intMagnitude).
        long magnitude = c - '0';
        byte[] b = buf;
        int p = pos;
        int limit = end;
        int digit;
        while (p < limit && (digit = b[p] - '0') >= 0 && digit <= 9) {
            magnitude = magnitude * 10 + digit;
            p++;
        }
        digits += p - pos;
        pos = p;
        intMagnitude = magnitude;
        intDigits = digits;
        fractionDigits = 0;
        exponentDigits = 0;
        boolean floating = false;
        if (pos < end && buf[pos] == '.') {
            floating = true;
            pos++;
            while (pos < end && isDigit(buf[pos])) {
                pos++;
                fractionDigits++;
            }
            if (fractionDigits == 0) {
                // Jackson has read the char after the point.
                String found = pos < end ? describe(buf[pos++] & 0xFF) : "end-of-input";
                throw new JsonReadException("Unexpected character (" + found
                        + ") in numeric value: Decimal point not followed by a digit");
            }
        }
        if (pos < end && (buf[pos] == 'e' || buf[pos] == 'E')) {
            floating = true;
            pos++;
            if (pos < end && (buf[pos] == '+' || buf[pos] == '-')) {
                pos++;
            }
            while (pos < end && isDigit(buf[pos])) {
                pos++;
                exponentDigits++;
            }
            if (exponentDigits == 0) {
                // Jackson has read the char after the exponent mark (and sign).
                String found = pos < end ? describe(buf[pos++] & 0xFF) : "end-of-input";
                throw new JsonReadException("Unexpected character (" + found
                        + ") in numeric value: Exponent indicator not followed by a digit");
            }
        }
        int length = floating ? intDigits + fractionDigits + exponentDigits : intDigits;
        if (length > MAX_NUMBER_LENGTH) {
            throw new JsonReadException("Number value length (" + length + ") exceeds the maximum allowed ("
                    + MAX_NUMBER_LENGTH + ", from `StreamReadConstraints.getMaxNumberLength()`)");
        }
        valueStart = start;
        valueEnd = pos;
        return floating ? VALUE_NUMBER_FLOAT : VALUE_NUMBER_INT;
    }

    /**
     * Jackson's {@code _handleInvalidNumberStart} for the char after a sign, already read: {@code I}
     * followed by {@code N} or {@code n} is matched as {@code INF} or {@code Infinity} (and then refused as
     * non-standard), so the parser stands after the whole word when it fails; otherwise it fails on the
     * char after the {@code I}, or on the char itself.
     */
    private JsonReadException invalidNumberStart(int c, boolean negative) {
        String sign = negative ? "-" : "+";
        if (c == 'I') {
            if (pos >= end) {
                return new JsonReadException("Unexpected end-of-input in a Number value");
            }
            c = buf[pos++];
            if (c == 'N' || c == 'n') {
                String word = sign + (c == 'N' ? "INF" : "Infinity");
                matchLiteral(word, 3);
                return nonNumeric(word);
            }
        }
        if (!negative) {
            return new JsonReadException("Unexpected character ('+' (code 43)) in numeric value: JSON spec does not"
                    + " allow numbers to have plus signs");
        }
        return new JsonReadException("Unexpected character (" + describe(c & 0xFF)
                + ") in numeric value: expected digit (0-9) to follow minus sign, for valid numeric value");
    }

    /** Jackson refuses NaN and the infinities: {@code ALLOW_NON_NUMERIC_NUMBERS} is off in Flink. */
    private static JsonReadException nonNumeric(String word) {
        return new JsonReadException("Non-standard token '" + word
                + "': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow");
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private int skipWhitespaceOrEnd() {
        while (pos < end) {
            int c = buf[pos++] & 0xFF;
            if (c > ' ') {
                if (c == '/') {
                    throw unexpected(c, "maybe a (non-standard) comment? (not recognized as one since Feature"
                            + " 'ALLOW_COMMENTS' not enabled for parser)");
                }
                return c;
            }
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                throw new JsonReadException("Illegal character ((CTRL-CHAR, code " + c
                        + ")): only regular white space (\\r, \\n, \\t) is allowed between tokens");
            }
        }
        return -1;
    }

    private int skipWhitespace() {
        int c = skipWhitespaceOrEnd();
        if (c < 0) {
            throw new JsonReadException("Unexpected end-of-input within/between " + typeDescription() + " entries");
        }
        return c;
    }

    private int skipColon() {
        int c = skipWhitespace();
        if (c != ':') {
            throw unexpected(c, "was expecting a colon to separate field name and value");
        }
        return skipWhitespace();
    }

    private JsonReadException unexpected(int c, String message) {
        return new JsonReadException("Unexpected character (" + describe(c) + "): " + message);
    }

    private static String describe(int c) {
        return c < 0x20 ? "CTRL-CHAR, code " + c : "'" + (char) c + "' (code " + c + ")";
    }

    // ---- names ----

    /**
     * Makes the next {@link #next()} try {@code quotedName} first if it reads a field name: when the name's
     * bytes and closing quote are exactly {@code quotedName[0, length)}, the name is taken without scanning
     * it ({@link #nameWasExpected()}). {@code quotedName} is a name's strictly valid UTF-8 without quote or
     * backslash, then {@code "}, zero-padded to a multiple of eight bytes: bytes {@link #scanPlain} would
     * pass up to that quote, so the name read is the one a scan reads.
     */
    void expectName(byte[] quotedName, int length) {
        expectedName = quotedName;
        expectedLength = length;
    }

    /** True if the current field name is the one given to {@link #expectName} before the last {@link #next()}. */
    boolean nameWasExpected() {
        return nameWasExpected;
    }

    /**
     * Jackson's {@code _parseName}; a name that does not start with a quote fails as its {@code
     * _handleOddName} fails: a non-ASCII byte is first decoded for the message ({@code _decodeCharForError}),
     * which consumes the rest of its UTF-8 sequence, so the parser stands after the whole character.
     */
    private void parseName(int c, byte[] expected) {
        if (c != '"') {
            throw unexpected(c < 0x80 ? c : (char) decodeForError(c), "was expecting double-quote to start field name");
        }
        int start = pos;
        if (expected != null && startsWith(expected, expectedLength, start)) {
            nameStart = start;
            nameEnd = start + expectedLength - 1;
            slowName = null;
            nameWasExpected = true;
            pos = start + expectedLength;
            return;
        }
        nameWasExpected = false;
        int i = scanPlain(start);
        if (i < end && buf[i] == '"') {
            nameStart = start;
            nameEnd = i;
            slowName = null;
            pos = i + 1;
        } else {
            slowName = decodeName();
            nameStart = nameEnd = -1;
        }
    }

    /**
     * True if the record's bytes from {@code start} are {@code expected[0, length)} (zero-padded to whole
     * words): a word at a time, the last word under a mask where the record's array has eight bytes there.
     */
    private boolean startsWith(byte[] expected, int length, int start) {
        byte[] b = buf;
        if (end - start < length) {
            return false;
        }
        int k = 0;
        for (; k + 8 <= length; k += 8) {
            if (word(expected, k) != word(b, start + k)) {
                return false;
            }
        }
        if (k == length) {
            return true;
        }
        if (start + k + 8 <= b.length) {
            long mask = -1L >>> (64 - 8 * (length - k));
            return ((word(b, start + k) ^ word(expected, k)) & mask) == 0;
        }
        for (; k < length; k++) {
            if (expected[k] != b[start + k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Jackson reads a name's bytes up to the closing quote first (decoding escapes, failing on a bad one
     * right there) and decodes UTF-8 afterwards: after a UTF-8 failure it stands past the closing quote.
     */
    private String decodeName() {
        int start = pos;
        while (true) {
            int c = nextStringByte();
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                decodeEscape();
            }
        }
        int after = pos;
        pos = start;
        try {
            return decodeString(true);
        } finally {
            pos = after;
        }
    }

    /** True if the current field name's text is the raw bytes [{@link #nameStart}, {@link #nameEnd}). */
    boolean nameIsRaw() {
        return slowName == null;
    }

    int nameStart() {
        return nameStart;
    }

    int nameEnd() {
        return nameEnd;
    }

    String name() {
        return slowName != null ? slowName : new String(buf, nameStart, nameEnd - nameStart, StandardCharsets.UTF_8);
    }

    // ---- strings ----

    /**
     * Scans from {@code i} over bytes a string keeps as they are (no quote, no backslash, strictly valid
     * UTF-8) and returns where that stops.
     */
    private int scanPlain(int i) {
        byte[] b = buf;
        int limit = end;
        while (i < limit) {
            long stops;
            int left = limit - i;
            if (left >= 8) {
                stops = Utf8Scan.notPlainBytes(word(b, i));
                if (stops == 0) {
                    i += 8;
                    continue;
                }
            } else if (limit >= 8) {
                // The record's last bytes: the word that ends at the limit, shifted so that byte i comes first;
                // the zero bytes shifted in are not plain, so only the low `left` bytes count.
                stops = Utf8Scan.notPlainBytes(tailWord(b, i, limit)) & (-1L >>> (64 - 8 * left));
                if (stops == 0) {
                    return limit;
                }
            } else {
                stops = 0x80; // an array shorter than a word: byte by byte
            }
            // Straight to the first byte the word test stopped at (the bytes before it are plain).
            i += Long.numberOfTrailingZeros(stops) >>> 3;
            int c = b[i];
            if (c >= 0) {
                if (c == '"' || c == '\\') {
                    return i;
                }
                i++;
                continue;
            }
            int n = strictSequenceLength(b, i, limit);
            if (n < 0) {
                return i;
            }
            i += n;
        }
        return i;
    }

    /** Length of the strictly valid UTF-8 multi-byte sequence at {@code i}, or -1. */
    private static int strictSequenceLength(byte[] b, int i, int limit) {
        int c = b[i] & 0xFF;
        if (c >= 0xC2 && c <= 0xDF) {
            return i + 1 < limit && isContinuation(b[i + 1]) ? 2 : -1;
        }
        if (c >= 0xE0 && c <= 0xEF) {
            if (i + 2 >= limit) {
                return -1;
            }
            int d = b[i + 1] & 0xFF;
            boolean ok = c == 0xE0 ? d >= 0xA0 && d <= 0xBF : c == 0xED ? d >= 0x80 && d <= 0x9F : (d & 0xC0) == 0x80;
            return ok && isContinuation(b[i + 2]) ? 3 : -1;
        }
        if (c >= 0xF0 && c <= 0xF4) {
            if (i + 3 >= limit) {
                return -1;
            }
            int d = b[i + 1] & 0xFF;
            boolean ok = c == 0xF0 ? d >= 0x90 && d <= 0xBF : c == 0xF4 ? d >= 0x80 && d <= 0x8F : (d & 0xC0) == 0x80;
            return ok && isContinuation(b[i + 2]) && isContinuation(b[i + 3]) ? 4 : -1;
        }
        return -1;
    }

    private static boolean isContinuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /** Jackson's {@code _skipString}: checks the rest of a string nobody read, leaving {@link #pos} after it. */
    private void skipString() {
        stringIncomplete = false;
        int i = scanPlain(pos);
        if (i < end && buf[i] == '"') {
            pos = i + 1;
        } else {
            skipDecoding(i);
        }
    }

    /**
     * The checks {@link #decodeString} makes of the rest of a string, from {@code i} (where {@link #scanPlain} stopped:
     * every byte before it passes them), nothing kept: the same errors, failing at the same byte, so {@link #pos}
     * stands where decoding would leave it; plain runs between escapes and lenient UTF-8 are scanned a word at a time.
     */
    private void skipDecoding(int i) {
        pos = i;
        while (true) {
            int c = nextStringByte();
            if (c == '"') {
                return;
            }
            if (c == '\\') {
                decodeEscape();
            } else if (c >= 0x80) {
                // decodeString's lenient sequences: only the continuation bytes are checked
                int continuations = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
                if (continuations < 0) {
                    throw new JsonReadException("Invalid UTF-8 start byte 0x" + Integer.toHexString(c));
                }
                for (int k = 0; k < continuations; k++) {
                    continuation();
                }
            }
            pos = scanPlain(pos);
        }
    }

    /**
     * Decodes the string starting at {@link #pos} up to its closing quote, as Jackson does: escapes,
     * UTF-8 sequences checked only for their continuation bytes (so overlong forms and encoded surrogates
     * pass, and a 4-byte sequence always becomes two UTF-16 units), raw control characters allowed. On
     * failure {@link #pos} is left after the offending byte, where Jackson's parser stands.
     */
    private String decodeString(boolean name) {
        StringBuilder out = chars;
        out.setLength(0);
        while (true) {
            int c = nextStringByte();
            if (c == '"') {
                return out.toString();
            }
            if (c == '\\') {
                out.append(decodeEscape());
            } else if (c < 0x80) {
                out.append((char) c);
            } else if ((c & 0xE0) == 0xC0) {
                out.append((char) (((c & 0x1F) << 6) | continuation()));
            } else if ((c & 0xF0) == 0xE0) {
                int value = (c & 0x0F) << 6 | continuation();
                out.append((char) (value << 6 | continuation()));
            } else if ((c & 0xF8) == 0xF0) {
                int value = (c & 0x07) << 6 | continuation();
                value = value << 6 | continuation();
                value = (value << 6 | continuation()) - 0x10000;
                // Jackson's name and value decoders combine the high surrogate differently; both kept.
                out.append((char) (name ? 0xD800 + (value >> 10) : 0xD800 | (value >> 10)));
                out.append((char) (0xDC00 | (value & 0x3FF)));
            } else {
                throw new JsonReadException("Invalid UTF-8 start byte 0x" + Integer.toHexString(c));
            }
        }
    }

    private int nextStringByte() {
        if (pos >= end) {
            throw new JsonReadException("Unexpected end-of-input: was expecting closing quote for a string value");
        }
        return buf[pos++] & 0xFF;
    }

    private int continuation() {
        int d = nextStringByte();
        if ((d & 0xC0) != 0x80) {
            throw new JsonReadException("Invalid UTF-8 middle byte 0x" + Integer.toHexString(d));
        }
        return d & 0x3F;
    }

    /** Jackson's {@code _decodeEscaped}, after the backslash. */
    char decodeEscape() {
        if (pos >= end) {
            throw new JsonReadException("Unexpected end-of-input in character escape sequence");
        }
        int c = buf[pos++] & 0xFF;
        switch (c) {
            case 'b':
                return '\b';
            case 't':
                return '\t';
            case 'n':
                return '\n';
            case 'f':
                return '\f';
            case 'r':
                return '\r';
            case '"':
            case '/':
            case '\\':
                return (char) c;
            case 'u':
                int value = 0;
                for (int i = 0; i < 4; i++) {
                    if (pos >= end) {
                        throw new JsonReadException("Unexpected end-of-input in character escape sequence");
                    }
                    int h = Character.digit(buf[pos++] & 0xFF, 16);
                    if (h < 0 || (buf[pos - 1] & 0x80) != 0) {
                        throw new JsonReadException("Unexpected character in character escape sequence:"
                                + " expected a hex-digit for character escape sequence");
                    }
                    value = value << 4 | h;
                }
                return (char) value;
            default:
                if (c >= 0x80) {
                    // Jackson decodes the char for its message, reading (and checking) its continuation
                    // bytes: a bad one fails there, and the parser stands after it.
                    c = decodeForError(c);
                }
                throw new JsonReadException("Unrecognized character escape " + describe(c));
        }
    }

    // ---- text of the current token ----

    /**
     * Makes the current token's text available (Jackson's {@code getText()}, which for a string value
     * reads and checks it) and returns true if it is the raw bytes [{@link #textStart()}, {@link
     * #textEnd()}) of {@link #buffer()}; false if it is {@link #text()} (a decoded string, or null for
     * {@link #NONE}).
     */
    boolean prepareText() {
        switch (current) {
            case VALUE_STRING:
                readStringValue(false);
                if (textInUtf8) {
                    // Decoded for prepareUtf8 and now asked for again: the UTF-8 holds no lone surrogate,
                    // so it decodes back to Jackson's chars.
                    slowText = new String(utf8, textStart, textEnd - textStart, StandardCharsets.UTF_8);
                    textInUtf8 = false;
                }
                return slowText == null;
            case FIELD_NAME:
                if (slowName == null) {
                    textStart = nameStart;
                    textEnd = nameEnd;
                    return true;
                }
                slowText = slowName;
                return false;
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
            case VALUE_TRUE:
            case VALUE_FALSE:
            case VALUE_NULL:
                textStart = valueStart;
                textEnd = valueEnd;
                return true;
            default:
                slowText = FIXED_TEXT[current];
                return false;
        }
    }

    /**
     * As {@link #prepareText()}, for a reader that stores the text as UTF-8 (Flink's {@code StringData}
     * bytes): true if the text is [{@link #textStart()}, {@link #textEnd()}) of {@link #textBuffer()}, which
     * for a string value with escapes is its decoded UTF-8; false if it is {@link #text()}.
     */
    boolean prepareUtf8() {
        if (current != VALUE_STRING) {
            return prepareText();
        }
        readStringValue(true);
        return slowText == null;
    }

    /** The bytes {@link #textStart()} and {@link #textEnd()} index after {@link #prepareUtf8()}. */
    byte[] textBuffer() {
        return textInUtf8 ? utf8 : buf;
    }

    /** Reads the current string value's text once; {@code toUtf8}: decode escapes straight into UTF-8. */
    private void readStringValue(boolean toUtf8) {
        if (!stringIncomplete) {
            if (!textReady) {
                // Read earlier and then moved over: not reachable, a token's text is read at most once
                // before the next token replaces it.
                throw new IllegalStateException("string text lost");
            }
            return;
        }
        // Jackson marks the token complete before decoding: after a failure the parser stays mid-string.
        stringIncomplete = false;
        int start = pos;
        int i = scanPlain(start);
        if (i < end && buf[i] == '"') {
            textStart = start;
            textEnd = i;
            slowText = null;
            pos = i + 1;
        } else if (toUtf8 && decodeToUtf8(i)) {
            slowText = null;
            textInUtf8 = true;
        } else {
            slowText = decodeString(false);
        }
        textReady = true;
    }

    /**
     * Decodes the string value at {@link #pos}, plain up to {@code plainEnd}, into {@link #utf8} as the
     * UTF-8 of the chars Jackson decodes: plain runs (strictly valid UTF-8 without quote or backslash) are
     * copied in bulk, one-letter escapes looked up in a table, hex escapes ({@code uXXXX}) encoded, a surrogate
     * pair of escapes as one 4-byte sequence. Returns false, moving nothing, at whatever is not simply the
     * UTF-8 of its chars (a lone surrogate escape, UTF-8 that is not strictly valid) or is an error (a bad
     * escape, the end of the input): {@link #decodeString} then decodes it char by char, and fails, as
     * Jackson does.
     */
    private boolean decodeToUtf8(int plainEnd) {
        byte[] b = buf;
        int limit = end;
        int n = plainEnd - pos;
        byte[] out = utf8Capacity(n + 16);
        System.arraycopy(b, pos, out, 0, n);
        int i = plainEnd;
        while (i < limit) {
            int c = b[i];
            if (c == '"') {
                textStart = 0;
                textEnd = n;
                pos = i + 1;
                return true;
            }
            if (c != '\\' || i + 1 >= limit || b[i + 1] < 0) {
                return false;
            }
            out = utf8Capacity(n + 4);
            int escape = b[i + 1];
            byte simple = SIMPLE_ESCAPES[escape];
            if (simple != 0) {
                out[n++] = simple;
                i += 2;
            } else if (escape != 'u') {
                return false;
            } else {
                int unit = hex4(b, i + 2, limit);
                i += 6;
                if (unit < 0) {
                    return false;
                } else if (unit < 0x80) {
                    out[n++] = (byte) unit;
                } else if (unit < 0x800) {
                    out[n++] = (byte) (0xC0 | unit >> 6);
                    out[n++] = (byte) (0x80 | unit & 0x3F);
                } else if (unit < 0xD800 || unit > 0xDFFF) {
                    out[n++] = (byte) (0xE0 | unit >> 12);
                    out[n++] = (byte) (0x80 | unit >> 6 & 0x3F);
                    out[n++] = (byte) (0x80 | unit & 0x3F);
                } else {
                    int low = unit <= 0xDBFF && i + 1 < limit && b[i] == '\\' && b[i + 1] == 'u'
                            ? hex4(b, i + 2, limit) : -1;
                    if (low < 0xDC00 || low > 0xDFFF) {
                        return false;
                    }
                    i += 6;
                    int codePoint = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    out[n++] = (byte) (0xF0 | codePoint >> 18);
                    out[n++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
                    out[n++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                    out[n++] = (byte) (0x80 | codePoint & 0x3F);
                }
            }
            int run = scanPlain(i);
            if (run > i) {
                out = utf8Capacity(n + run - i);
                System.arraycopy(b, i, out, n, run - i);
                n += run - i;
                i = run;
            }
        }
        return false;
    }

    /** The value of four hex digits at {@code at}, or -1 (a non-digit makes the OR of the digits negative). */
    private static int hex4(byte[] b, int at, int limit) {
        if (at + 4 > limit) {
            return -1;
        }
        int d0 = HEX_VALUES[b[at] & 0xFF];
        int d1 = HEX_VALUES[b[at + 1] & 0xFF];
        int d2 = HEX_VALUES[b[at + 2] & 0xFF];
        int d3 = HEX_VALUES[b[at + 3] & 0xFF];
        if ((d0 | d1 | d2 | d3) < 0) {
            return -1;
        }
        return d0 << 12 | d1 << 8 | d2 << 4 | d3;
    }

    private byte[] utf8Capacity(int bytes) {
        if (utf8.length < bytes) {
            utf8 = Arrays.copyOf(utf8, Math.max(bytes, utf8.length * 2));
        }
        return utf8;
    }

    /** How many objects and arrays are open (a structure's start token has opened its own). */
    int depth() {
        return depth;
    }

    /**
     * Makes the current token a string value whose text is {@code text}, as read: how a reader of Flink's
     * tree deserializer sees a value through the node's {@code asText()} where that differs from the token's
     * text (a number node's canonical text, the empty text of an object or array).
     */
    void presentAsString(String text) {
        current = VALUE_STRING;
        stringIncomplete = false;
        slowText = text;
        textReady = true;
        textInUtf8 = false;
    }

    int valueStart() {
        return valueStart;
    }

    int valueEnd() {
        return valueEnd;
    }

    int textStart() {
        return textStart;
    }

    int textEnd() {
        return textEnd;
    }

    /** Jackson's {@code getText()} of the current token as a Java string. */
    String text() {
        return prepareText() ? new String(buf, textStart, textEnd - textStart, StandardCharsets.UTF_8) : slowText;
    }

    /** True if the current token is a string value nobody has read: {@link #pos} is just after its quote. */
    boolean stringUnread() {
        return current == VALUE_STRING && stringIncomplete;
    }

    /**
     * Copies the unread string value to {@code address} while scanning it, if it is plain (strictly valid
     * UTF-8 without quote or backslash up to its closing quote), and takes it as read, as {@link
     * #prepareUtf8()} would; returns its length. Returns -1, having read nothing (the bytes written at
     * {@code address} mean nothing then), for any other string or when {@code room}, the bytes writable at
     * {@code address}, is less than the rest of the record plus a word. Words are written whole as they are
     * tested, so a string costs one pass over its bytes instead of a scan and then a copy; the record's last
     * bytes are one word too ({@link #tailWord}), so a string near the record's end (a row's last field) is not
     * read byte by byte.
     */
    int copyPlainString(long address, long room) {
        if (!stringUnread() || room < (long) (end - pos) + 8 || end < 8) {
            return -1;
        }
        byte[] b = buf;
        int limit = end;
        int start = pos;
        // byte i of the record goes to to + i
        long to = address - start;
        int i = start;
        while (true) {
            long word;
            if (i <= limit - 8) {
                word = word(b, i);
            } else if (i < limit) {
                word = tailWord(b, i, limit);
            } else {
                return -1;
            }
            MemoryUtil.putLong(to + i, word);
            long stops = Utf8Scan.notPlainBytes(word);
            if (stops == 0) {
                i += 8;
                continue;
            }
            i += Long.numberOfTrailingZeros(stops) >>> 3;
            if (i >= limit) {
                return -1; // a zero byte of the tail word: no closing quote in the record
            }
            int c = b[i];
            if (c == '"') {
                takePlainString(i);
                return i - start;
            }
            int n = c >= 0 ? (c == '\\' ? -1 : 1) : strictSequenceLength(b, i, limit);
            if (n < 0) {
                return -1;
            }
            for (int k = 0; k < n; k++) {
                MemoryUtil.putByte(to + i + k, b[i + k]);
            }
            i += n;
        }
    }

    /**
     * The record's bytes {@code [i, limit)} (fewer than eight, {@code limit} at least 8) as a little-endian word,
     * zeros above them: read as the word ending at {@code limit}, so nothing past the record is read. A zero byte
     * is a control character, which stops a scan for plain bytes, so a scan of this word stops by {@code limit}.
     */
    private static long tailWord(byte[] b, int i, int limit) {
        return word(b, limit - 8) >>> (8 * (i - (limit - 8)));
    }

    /** Where an unread string value's bytes start ({@link #stringUnread()}): just after its opening quote. */
    int stringStart() {
        return pos;
    }

    /** The end of the record's bytes in {@link #buffer()}. */
    int limit() {
        return end;
    }

    /**
     * Takes the unread string value as the plain bytes [{@link #stringStart()}, {@code quote}), as reading
     * it would ({@link #prepareText()} is then true for them): the caller has checked that they are ASCII
     * without quote or backslash and that {@code quote} holds its closing quote.
     */
    void takePlainString(int quote) {
        stringIncomplete = false;
        textStart = pos;
        textEnd = quote;
        slowText = null;
        textReady = true;
        pos = quote + 1;
    }

    /**
     * Reads the next raw byte of an unread string value (for Base64). The string stays unread until {@link
     * #finishRawString()}: after a failure Jackson's next token skips the rest of it.
     */
    int rawStringByte() {
        return nextStringByte();
    }

    /** Marks the string value read through {@link #rawStringByte()} as complete. */
    void finishRawString() {
        stringIncomplete = false;
    }

    /** Steps back one byte (Jackson's {@code --_inputPtr} before reporting missing Base64 padding). */
    void unreadByte() {
        pos--;
    }

    // ---- replay ----

    /** A saved tokenizer position, to read a structure a second time (see {@link MapJsonReader}). */
    static final class Mark {
        private int pos;
        private int current;
        private int pending;
        private boolean stringIncomplete;
        private int depth;
        private int[] contextType = new int[16];
        private int[] contextIndex = new int[16];
    }

    /**
     * Saves the position, to {@link #reset} to and go on from with {@link #next}: the current token's kind and where
     * the next one starts are kept, its text is not (read a token's text before marking after it, or not at all).
     */
    void mark(Mark m) {
        m.pos = pos;
        m.current = current;
        m.pending = pending;
        m.stringIncomplete = stringIncomplete;
        m.depth = depth;
        if (m.contextType.length <= depth) {
            m.contextType = new int[contextType.length];
            m.contextIndex = new int[contextType.length];
        }
        System.arraycopy(contextType, 0, m.contextType, 0, depth + 1);
        System.arraycopy(contextIndex, 0, m.contextIndex, 0, depth + 1);
    }

    /** Returns to a saved position of the same record. */
    void reset(Mark m) {
        pos = m.pos;
        current = m.current;
        pending = m.pending;
        stringIncomplete = m.stringIncomplete;
        depth = m.depth;
        System.arraycopy(m.contextType, 0, contextType, 0, depth + 1);
        System.arraycopy(m.contextIndex, 0, contextIndex, 0, depth + 1);
        textReady = false;
    }

    // ---- numbers ----

    boolean negative() {
        return negative;
    }

    /** The current number's integer digits as a value without sign: exact when {@link #intDigits()} is at most 18. */
    long intMagnitude() {
        return intMagnitude;
    }

    int intDigits() {
        return intDigits;
    }

    int fractionDigits() {
        return fractionDigits;
    }

    int exponentDigits() {
        return exponentDigits;
    }
}
