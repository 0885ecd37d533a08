package io.columnarkafka.flink.examples;

import io.columnarkafka.flink.batch.ArrowBatch;
import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.arrow.ArrowLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;

/**
 * A columnar operator on Nexmark bids, computed on the Arrow vectors with no row objects:
 *
 * <pre>{@code
 * SELECT auction, bidder, price * 2 AS price, channel, dateTime FROM bid WHERE auction % 2 = 0
 * }</pre>
 *
 * with SQL's semantics: a row whose {@code auction} is null is filtered out, {@code price * 2} is null
 * for a null price and wraps on overflow as Flink's BIGINT arithmetic does, {@code %} keeps the sign of
 * the dividend. The input batches have the layout of {@link #INPUT_TYPE}; each input batch gives one
 * output batch (none when no row passes), built in this operator's own bounded allocator and handed
 * downstream with its ownership; the input batch is closed once read.
 */
public final class EvenAuctionBids extends RichFlatMapFunction<ArrowBatch, ArrowBatch> {
    private static final long serialVersionUID = 1L;

    /** The Nexmark Bid row type. */
    public static final RowType INPUT_TYPE = RowTypes.parse(
            "ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,"
                    + " dateTime TIMESTAMP(3), extra STRING>");

    /** The row type of the output batches. */
    public static final RowType OUTPUT_TYPE = RowTypes.parse(
            "ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, dateTime TIMESTAMP(3)>");

    /** The same query in Flink SQL, over a table {@code bid} of {@link #INPUT_TYPE}. */
    public static final String SQL =
            "SELECT auction, bidder, price * 2 AS price, channel, `dateTime` FROM bid WHERE auction % 2 = 0";

    /** Input field of each output field; the price is computed. */
    private static final int[] COPIED_FROM = {0, 1, -1, 3, 5};
    private static final int AUCTION = 0;
    private static final int PRICE = 2;

    private static final long DEFAULT_ALLOCATOR_LIMIT = 256L << 20;

    private final long allocatorLimit;
    private transient BufferAllocator allocator;
    private transient Schema outputSchema;
    private transient int[] selected;

    public EvenAuctionBids() {
        this(DEFAULT_ALLOCATOR_LIMIT);
    }

    public EvenAuctionBids(long allocatorLimit) {
        this.allocatorLimit = allocatorLimit;
    }

    @Override
    public void open(OpenContext openContext) {
        allocator = ArrowMemory.newChild(
                "even-auction-bids " + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks(), allocatorLimit);
        outputSchema = ArrowLayout.schema(OUTPUT_TYPE);
        selected = new int[1024];
    }

    @Override
    public void flatMap(ArrowBatch batch, Collector<ArrowBatch> out) {
        VectorSchemaRoot result;
        try (batch) {
            VectorSchemaRoot in = batch.open(allocator);
            ArrowLayout.check(INPUT_TYPE, in);
            int[] selection = batch.selection();
            int rows = select((BigIntVector) in.getVector(AUCTION), selection,
                    selection == null ? in.getRowCount() : batch.selectedCount(allocator));
            if (rows == 0) {
                return;
            }
            result = project(in, rows);
        }
        ArrowBatch.of(result, null).emitTo(out);
    }

    /**
     * The output layout for {@code in}: a copied column keeps the Arrow type it came in (e.g. a json source's
     * timestamps as Flink's millis + nanos of the milli), under its output name.
     */
    private Schema outputSchema(VectorSchemaRoot in) {
        List<Field> fields = new ArrayList<>(outputSchema.getFields());
        for (int field = 0; field < fields.size(); field++) {
            if (field != PRICE) {
                Field source = in.getVector(COPIED_FROM[field]).getField();
                fields.set(field, new Field(fields.get(field).getName(), source.getFieldType(), source.getChildren()));
            }
        }
        return new Schema(fields);
    }

    /**
     * Fills {@link #selected} with the rows whose auction is even, among the batch's selected rows
     * ({@code selection} null: the first {@code rowCount}); returns how many.
     */
    private int select(BigIntVector auction, int[] selection, int rowCount) {
        if (selected.length < rowCount) {
            selected = new int[rowCount];
        }
        int rows = 0;
        for (int k = 0; k < rowCount; k++) {
            int i = selection == null ? k : selection[k];
            if (!auction.isNull(i) && auction.get(i) % 2 == 0) {
                selected[rows++] = i;
            }
        }
        return rows;
    }

    private VectorSchemaRoot project(VectorSchemaRoot in, int rows) {
        VectorSchemaRoot result = VectorSchemaRoot.create(outputSchema(in), allocator);
        try {
            List<FieldVector> outputs = result.getFieldVectors();
            for (int field = 0; field < outputs.size(); field++) {
                FieldVector target = outputs.get(field);
                target.setInitialCapacity(rows);
                target.allocateNew();
                if (field == PRICE) {
                    doublePrices((BigIntVector) in.getVector(PRICE), (BigIntVector) target, rows);
                } else {
                    FieldVector source = in.getVector(COPIED_FROM[field]);
                    for (int row = 0; row < rows; row++) {
                        target.copyFromSafe(selected[row], row, source);
                    }
                }
                target.setValueCount(rows);
            }
            result.setRowCount(rows);
            return result;
        } catch (RuntimeException e) {
            result.close();
            throw e;
        }
    }

    private void doublePrices(BigIntVector price, BigIntVector target, int rows) {
        for (int row = 0; row < rows; row++) {
            int i = selected[row];
            if (price.isNull(i)) {
                target.setNull(row);
            } else {
                target.set(row, price.get(i) * 2);
            }
        }
    }

    @Override
    public void close() {
        if (allocator != null) {
            allocator.close();
            allocator = null;
        }
    }
}
