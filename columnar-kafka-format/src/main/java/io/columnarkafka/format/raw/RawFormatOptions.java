package io.columnarkafka.format.raw;

import java.nio.charset.Charset;
import java.util.Map;
import java.util.Set;

/**
 * Options of Flink's {@code raw} format (keys without the {@code raw.} prefix), validated as Flink's
 * {@code RawFormatFactory} does.
 *
 * @param charset {@code charset}: how CHAR/VARCHAR values are encoded (UTF-8 by default)
 * @param bigEndian {@code endianness}: {@code big-endian} (default) or {@code little-endian}, for numbers
 */
public record RawFormatOptions(Charset charset, boolean bigEndian) {
    private static final Set<String> KEYS = Set.of("charset", "endianness");

    public static RawFormatOptions defaults() {
        return fromMap(Map.of());
    }

    /** @throws IllegalArgumentException for an unknown key, charset or endianness */
    public static RawFormatOptions fromMap(Map<String, String> options) {
        for (String key : options.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(
                        "raw format has no option '" + key + "'; supported: [charset, endianness]");
            }
        }
        String charsetName = options.getOrDefault("charset", "UTF-8");
        Charset charset;
        try {
            charset = Charset.forName(charsetName);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(String.format("Unsupported 'raw.charset' name: %s.", charsetName), e);
        }
        String endianness = options.getOrDefault("endianness", "big-endian");
        if (!endianness.equals("big-endian") && !endianness.equals("little-endian")) {
            throw new IllegalArgumentException(String.format("Unsupported endianness name: %s. Valid values of"
                    + " 'raw.endianness' option are 'big-endian' and 'little-endian'.", endianness));
        }
        return new RawFormatOptions(charset, endianness.equals("big-endian"));
    }
}
