package io.columnarkafka.format;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Which columns of a batch an encoder writes, in which order, and under which names. A value encoder
 * usually writes every column; a key encoder writes the {@code key.fields}, with the key prefix
 * stripped from their names as Flink does.
 */
public final class Projection implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RowType batchType;
    private final int[] fields;
    private final List<String> names;

    private Projection(RowType batchType, int[] fields, List<String> names) {
        this.batchType = Objects.requireNonNull(batchType, "batchType");
        this.fields = fields.clone();
        this.names = List.copyOf(names);
        if (names.size() != fields.length) {
            throw new IllegalArgumentException(
                    "projection has " + fields.length + " fields but " + names.size() + " names");
        }
        for (int field : fields) {
            if (field < 0 || field >= batchType.getFieldCount()) {
                throw new IllegalArgumentException(
                        "field index " + field + " is outside the row type " + batchType);
            }
        }
    }

    /** Every column of the batch, under its own name. */
    public static Projection all(RowType batchType) {
        int[] fields = new int[batchType.getFieldCount()];
        Arrays.setAll(fields, i -> i);
        return of(batchType, fields);
    }

    /** The given columns (indexes into the batch), under their own names. */
    public static Projection of(RowType batchType, int... fields) {
        List<String> names = new ArrayList<>(fields.length);
        for (int field : fields) {
            names.add(batchType.getFieldNames().get(field));
        }
        return new Projection(batchType, fields, names);
    }

    /** The same columns written under other names (e.g. with {@code key.fields-prefix} stripped). */
    public Projection withNames(List<String> outputNames) {
        return new Projection(batchType, fields, outputNames);
    }

    /** The row type of the whole Arrow batch. */
    public RowType batchType() {
        return batchType;
    }

    public int fieldCount() {
        return fields.length;
    }

    /** Index into the batch of the projection's {@code i}-th field. */
    public int field(int i) {
        return fields[i];
    }

    /** Name the format writes for the projection's {@code i}-th field. */
    public String name(int i) {
        return names.get(i);
    }

    public LogicalType type(int i) {
        return batchType.getTypeAt(fields[i]);
    }

    /** The row type the format sees, as Flink's format would be given it. */
    public RowType outputType() {
        List<RowType.RowField> out = new ArrayList<>(fields.length);
        for (int i = 0; i < fields.length; i++) {
            out.add(new RowType.RowField(names.get(i), type(i)));
        }
        return new RowType(batchType.isNullable(), out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Projection p
                && batchType.equals(p.batchType)
                && Arrays.equals(fields, p.fields)
                && names.equals(p.names);
    }

    @Override
    public int hashCode() {
        return Objects.hash(batchType, Arrays.hashCode(fields), names);
    }

    @Override
    public String toString() {
        return outputType().asSummaryString();
    }
}
