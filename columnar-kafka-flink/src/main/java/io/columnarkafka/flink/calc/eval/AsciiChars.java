package io.columnarkafka.flink.calc.eval;

/**
 * An ASCII byte range seen as a {@link CharSequence}, so a regular expression can run on an Arrow string
 * without decoding it: for ASCII, byte offsets are char offsets.
 */
final class AsciiChars implements CharSequence {
    private byte[] bytes;
    private int start;
    private int length;

    AsciiChars wrap(byte[] bytes, int start, int length) {
        this.bytes = bytes;
        this.start = start;
        this.length = length;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return (char) bytes[start + index];
    }

    @Override
    public CharSequence subSequence(int from, int to) {
        return toString().substring(from, to);
    }

    @Override
    public String toString() {
        return new String(bytes, start, length, java.nio.charset.StandardCharsets.US_ASCII);
    }
}
