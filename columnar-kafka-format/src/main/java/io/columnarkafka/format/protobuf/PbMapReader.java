package io.columnarkafka.format.protobuf;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * A map field (MAP): one entry per distinct key, as protobuf-java's map keeps them: a key sent again keeps
 * its first position and takes the value of its last entry. An entry missing its key or value has the
 * type's default there (a message value: the default instance). Within an entry the last key and value
 * count (a message value merges). No entry: null if Flink checks {@code getXCount() > 0} ({@code
 * read-default-values} false), else an empty map.
 *
 * <p>Flink copies the entries into a {@code HashMap}, so its map has no order of its own; the rows here keep
 * protobuf-java's.
 */
final class PbMapReader extends PbFieldReader {
    /** The entry message: columns key and value. */
    private final PbMessageReader entry;
    /** How keys compare: the key field's wire reading. */
    private final PbMapKeys keys;
    private final boolean emptyWhenUnset;
    private MapVector vector;

    PbMapReader(String path, int field, PbMessageReader entry, PbMapKeys keys, boolean emptyWhenUnset) {
        super(path, field);
        this.entry = entry;
        this.keys = keys;
        this.emptyWhenUnset = emptyWhenUnset;
    }

    @Override
    void bind(FieldVector vector) {
        this.vector = (MapVector) vector;
        entry.bind((StructVector) this.vector.getDataVector());
    }

    @Override
    void read(PbInput in, PbOccurrences occurrences, int from, int index) {
        int distinct = keys.distinct(in, occurrences, from);
        if (distinct == 0 && !emptyWhenUnset) {
            vector.setNull(index);
            return;
        }
        int offset = vector.startNewValue(index);
        for (int d = 0; d < distinct; d++) {
            int last = keys.lastEntry(d);
            entry.readOne(in, occurrences.starts[last], occurrences.ends[last], offset + d);
        }
        vector.endValue(index, distinct);
    }
}
