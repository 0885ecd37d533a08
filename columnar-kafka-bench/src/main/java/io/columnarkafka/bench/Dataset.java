package io.columnarkafka.bench;

import io.columnarkafka.testkit.nexmark.BidGenerator;
import io.columnarkafka.testkit.nexmark.NexmarkConfig;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import java.util.List;
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
    /**
     * Nexmark events as the suite's Kafka table holds them (1 person : 3 auctions : 46 bids, one non-null row
     * each), every column decoded. Decoders only: {@link #fill} has no Arrow writer for them.
     */
    EVENT(NexmarkGenerator.EVENT_TYPE) {
        @Override
        void fill(VectorSchemaRoot batch, int rows) {
            throw new UnsupportedOperationException("events are a decoder dataset");
        }

        @Override
        RowData row(int i) {
            return EVENTS.event(i);
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
    private static final NexmarkGenerator EVENTS = new NexmarkGenerator(NexmarkConfig.defaults(SEED));

    private final RowType rowType;

    Dataset(RowType rowType) {
        this.rowType = rowType;
    }

    RowType rowType() {
        return rowType;
    }

    /**
     * The fields a decoder produces for a dataset parameter (in {@link #rowType()}'s order; the others it checks
     * only): those named after a colon, {@code +}-separated (e.g. {@code event:bid}, as a bid query's scan), else
     * every field.
     */
    static List<String> produced(String name) {
        int colon = name.indexOf(':');
        return colon < 0 ? named(name).rowType.getFieldNames() : List.of(name.substring(colon + 1).split("\\+"));
    }

    /** Writes rows {@code [0, rows)} into {@code batch}, laid out as {@code ArrowLayout.schema(rowType())}. */
    abstract void fill(VectorSchemaRoot batch, int rows);

    /** Row {@code i}, the same values {@link #fill} writes at index {@code i}. */
    abstract RowData row(int i);

    /** The dataset named by a JMH parameter, e.g. {@code bid} (or {@code event:bid}, see {@link #produced}). */
    static Dataset named(String name) {
        int colon = name.indexOf(':');
        return valueOf((colon < 0 ? name : name.substring(0, colon)).toUpperCase(java.util.Locale.ROOT));
    }
}
