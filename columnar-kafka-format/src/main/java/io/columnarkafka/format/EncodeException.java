package io.columnarkafka.format;

/**
 * A value in a batch that the format cannot encode, with the column, the row and the reason. When it is
 * thrown, nothing of the batch has been handed out: the encoder's slab is cleared.
 */
public final class EncodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String column;
    private final int row;

    public EncodeException(String column, int row, String reason) {
        super("column '" + column + "', row " + row + ": " + reason);
        this.column = column;
        this.row = row;
    }

    public String column() {
        return column;
    }

    public int row() {
        return row;
    }
}
