package io.columnarkafka.format;

/** UTF-8 well-formedness of byte ranges, as the JDK's decoder (and protobuf's {@code Utf8}) define it. */
public final class Utf8Bytes {
    private Utf8Bytes() {}

    /** Strict UTF-8: no overlong forms, surrogates or code points past U+10FFFF. */
    public static boolean isWellFormed(byte[] b, int start, int end) {
        int i = start;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int need;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                min = 0x10000;
            } else {
                return false;
            }
            if (i + need >= end) {
                return false;
            }
            int cp = c & (0x3F >> need);
            for (int k = 1; k <= need; k++) {
                int d = b[i + k] & 0xFF;
                if ((d & 0xC0) != 0x80) {
                    return false;
                }
                cp = (cp << 6) | (d & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return false;
            }
            i += need + 1;
        }
        return true;
    }
}
