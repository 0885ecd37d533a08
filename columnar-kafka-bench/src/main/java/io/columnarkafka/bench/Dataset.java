package io.columnarkafka.bench;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** The rows a benchmark encodes, available both as an Arrow batch and as Flink {@link RowData}. */
enum Dataset {
    /** Nexmark-like bids, about 230 bytes of JSON per row. */
    BID(BidGenerator.BID_TYPE) {
        private final BidGenerator generator = new BidGenerator(SEED);

        @Override
        void fill(VectorSchemaRoot batch, int rows) {
            generator.fill(batch, 0, rows);
        }

        @Override
        RowData row(int i) {
            return generator.row(i);
        }
    },
    /**
     * Bid-shaped rows whose values do not flatter (see {@link AdversarialBids}): escapes, quoting, multi-byte
     * and non-BMP text, extreme numbers, timestamps spread over centuries.
     */
    ADVERSARIAL(BidGenerator.BID_TYPE) {
        private final AdversarialBids generator = new AdversarialBids(SEED);

        @Override
        void fill(VectorSchemaRoot batch, int rows) {
            generator.fill(batch, rows);
        }

        @Override
        RowData row(int i) {
            return generator.row(i);
        }
    },
    /** A wide row of mixed types with nested values and nulls (see {@link WideRows}). */
    WIDE(WideRows.WIDE_TYPE) {
        @Override
        void fill(VectorSchemaRoot batch, int rows) {
            WideRows.fill(batch, rows);
        }

        @Override
        RowData row(int i) {
            return WideRows.row(i);
        }
    };

    private static final long SEED = 42;

    private final RowType rowType;

    Dataset(RowType rowType) {
        this.rowType = rowType;
    }

    RowType rowType() {
        return rowType;
    }

    /** Writes rows {@code [0, rows)} into {@code batch}, laid out as {@code ArrowLayout.schema(rowType())}. */
    abstract void fill(VectorSchemaRoot batch, int rows);

    /** Row {@code i}, the same values {@link #fill} writes at index {@code i}. */
    abstract RowData row(int i);

    /** The dataset named by a JMH parameter, e.g. {@code bid}. */
    static Dataset named(String name) {
        return valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }
}
