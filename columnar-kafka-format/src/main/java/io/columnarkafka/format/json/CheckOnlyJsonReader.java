package io.columnarkafka.format.json;

import org.apache.arrow.vector.FieldVector;

/**
 * A column Flink's deserializer converts and nobody reads (Flink's {@code kafka} source takes no projection,
 * so its format converts every value field): the value is consumed and checked exactly as the type's reader
 * would ({@link JsonReader#checkValue}), so a record Flink rejects or skips is rejected or skipped here, and the
 * tokenizer stands where Flink's parser stands, but no vector is built and nothing is allocated per value on the
 * usual paths. Inherits {@link JsonReader#read}: JSON null and a missing token are nothing, and under {@code
 * ignore-parse-errors} a failed value is nothing too, as Flink's null field. {@link #count} stays 0.
 */
final class CheckOnlyJsonReader extends JsonReader {
    private final JsonReader type;

    /** @param type the reader of the column's type, whose children (if any) check only */
    CheckOnlyJsonReader(JsonReader type) {
        super(type.path, type.ignoreParseErrors);
        this.type = type;
    }

    @Override
    void bind(FieldVector vector) {
        throw new IllegalStateException("column '" + path + "' is checked, not read: it has no vector");
    }

    @Override
    void readValue(JsonTokenizer t) {
        type.checkValue(t);
    }

    @Override
    void checkValue(JsonTokenizer t) {
        type.checkValue(t);
    }

    @Override
    void appendNull() {}

    @Override
    void truncate(int entries) {}
}
