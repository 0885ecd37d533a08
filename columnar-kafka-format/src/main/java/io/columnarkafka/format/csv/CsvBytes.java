package io.columnarkafka.format.csv;

import java.nio.charset.StandardCharsets;

/** The UTF-8 bytes of the separators and the null literal, computed once per plan. */
final class CsvBytes {
    final byte[] fieldDelimiter;
    final byte[] arrayDelimiter;
    final byte[] nullLiteral;

    CsvBytes(CsvFormatOptions options) {
        this.fieldDelimiter = String.valueOf(options.fieldDelimiter()).getBytes(StandardCharsets.UTF_8);
        this.arrayDelimiter = options.arrayElementDelimiter().getBytes(StandardCharsets.UTF_8);
        this.nullLiteral = options.nullLiteral().getBytes(StandardCharsets.UTF_8);
    }
}
