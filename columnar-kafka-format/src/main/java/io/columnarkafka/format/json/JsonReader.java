package io.columnarkafka.format.json;

import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.OversizedAllocationException;

/**
 * Reads one JSON value per call into the next entry of an Arrow vector, consuming tokens exactly as Flink
 * 2.2's converter for the same type in {@code JsonParserToRowDataConverters} does. {@link #read} is Flink's
 * null-safe wrapper: a missing token or JSON {@code null} gives a null entry, and under {@code
 * ignore-parse-errors} a value that fails gives a null entry (with the tokenizer left wherever the failure
 * left it, as Flink's parser is), except where Flink never returns ({@link JsonReadException#pastEnd}). Readers append: {@link #count} is the number of entries written in this
 * batch, and {@link #truncate} drops entries (and their nested children) so a later value can replace them.
 */
abstract class JsonReader {
    /** The field path in errors, e.g. {@code bid.price} or {@code tags[]}. */
    final String path;
    final boolean ignoreParseErrors;
    /** Entries written into the bound vector in this batch. */
    int count;

    JsonReader(String path, boolean ignoreParseErrors) {
        this.path = path;
        this.ignoreParseErrors = ignoreParseErrors;
    }

    /** Binds this reader (and its children) to this batch's vector, which has been allocated. */
    abstract void bind(FieldVector vector);

    /** Appends the value of the current token. */
    final void read(JsonTokenizer t) {
        int token = t.current();
        if (token == JsonTokenizer.NONE || token == JsonTokenizer.VALUE_NULL) {
            appendNull();
            return;
        }
        int at = count;
        try {
            // The readers of most rows are called by their own (final) class, so the JIT can inline them into
            // the row loop: through the abstract method the call site sees every reader type and stays a
            // virtual call per value.
            if (this instanceof StringJsonReader string) {
                string.readValue(t);
            } else if (this instanceof IntegerJsonReader integer) {
                integer.readValue(t);
            } else if (this instanceof TimestampJsonReader timestamp) {
                timestamp.readValue(t);
            } else {
                readValue(t);
            }
        } catch (RuntimeException e) {
            if (!ignoreParseErrors || !isSkippable(e)) {
                throw e;
            }
            truncate(at);
            appendNull();
        }
    }

    /** Appends the value of the current token, which is neither missing nor JSON null. */
    abstract void readValue(JsonTokenizer t);

    /**
     * Consumes the value of the current token (neither missing nor JSON null) exactly as {@link #readValue}
     * does, failing where it fails, and writes nothing: what Flink's converter does to a column nobody reads
     * ({@link CheckOnlyJsonReader}). Composite readers run their children's {@link #read}, so a reader whose
     * children check (see {@link JsonReaderPlan}) is used only through this method.
     */
    abstract void checkValue(JsonTokenizer t);

    abstract void appendNull();

    /** Drops the entries from {@code entries} on, with everything nested in them. */
    abstract void truncate(int entries);

    /**
     * Whether {@link #reorder} applies: each entry is one value in this reader's own vector, nothing nested in it
     * (the fixed-width and variable-width columns).
     */
    boolean reordersInPlace() {
        return false;
    }

    /**
     * Rewrites the last entries written, {@code [start, start + read)}, in another order: entry {@code start + j}
     * becomes what entry {@code start + from[j]} was, for {@code j < size}, and the entries from {@code start +
     * size} on are dropped. {@link MapJsonReader} gives a map Flink's order so, without reading its entries again.
     * Only where {@link #reordersInPlace}.
     */
    void reorder(int start, int read, int[] from, int size, EntryReorder reorder) {
        throw new UnsupportedOperationException("column '" + path + "': entries with children are read again");
    }

    /** True for a failure of the input (Flink's converters see it); false for our own memory failures. */
    static boolean isDataError(RuntimeException e) {
        return !(e instanceof OutOfMemoryException || e instanceof OversizedAllocationException);
    }

    /** A failure {@code ignore-parse-errors} makes a null: of the input, and not where Flink never returns. */
    static boolean isSkippable(RuntimeException e) {
        return isDataError(e) && !JsonReadException.isPastEnd(e);
    }
}
