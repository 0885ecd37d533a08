package io.columnarkafka.format;

/**
 * An Arrow batch whose columns do not fit the row type the encoder was planned for. Raised before any
 * byte of the batch is written; the message names the column, the expected and the actual Arrow type.
 */
public final class BatchLayoutException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String column;

    public BatchLayoutException(String column, String reason) {
        super("column '" + column + "': " + reason);
        this.column = column;
    }

    public String column() {
        return column;
    }
}
