package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Reads the projected fields of one message type into one row (a record, a ROW column, an element of a
 * repeated message, a map entry). Two passes per message: the first walks the tags of the message's bytes
 * (of several occurrences one after the other when a message field was sent more than once, which is how
 * protobuf-java merges them), skips unknown fields, checks every known field as protobuf-java's parser would
 * ({@link PbShape}, once, at the record level) and notes where each projected field occurred; the second lets
 * each column's {@link PbFieldReader} write its slot from those occurrences. Of a oneof only the member set
 * last is set; a message member then merges all of its occurrences, also those before another member was set
 * in between (protobuf-java's builder keeps that member's sub-builder across the switch).
 */
final class PbMessageReader {
    private final String path;
    private final PbShape shape;
    private final PbFieldReader[] columns;
    /** Per field of the shape: its column, or -1. */
    private final int[] columnOf;
    /** Per field of the shape: its real oneof (index in the message's oneofs), or -1. */
    private final int[] oneofOf;
    /** Per field of the shape: a singular enum that drops numbers it does not declare. */
    private final boolean[] closedSingular;
    private final PbOccurrences[] occurrences;
    /** Per oneof: the member last set (shape index), or -1. */
    private final int[] oneofCase;
    private final PbOccurrences one = new PbOccurrences();
    private StructVector struct;

    PbMessageReader(String path, PbShape shape, List<PbFieldReader> columns) {
        this.path = path;
        this.shape = shape;
        this.columns = columns.toArray(new PbFieldReader[0]);
        int n = shape.fieldCount();
        this.columnOf = new int[n];
        this.oneofOf = new int[n];
        this.closedSingular = new boolean[n];
        Arrays.fill(columnOf, -1);
        List<OneofDescriptor> oneofs = shape.descriptor().getRealOneofs();
        for (int f = 0; f < n; f++) {
            FieldDescriptor fd = shape.field(f);
            oneofOf[f] = fd.getRealContainingOneof() == null ? -1 : oneofs.indexOf(fd.getRealContainingOneof());
            closedSingular[f] = !fd.isRepeated() && shape.closedEnum(f);
        }
        this.occurrences = new PbOccurrences[this.columns.length];
        for (int c = 0; c < this.columns.length; c++) {
            columnOf[this.columns[c].field] = c;
            occurrences[c] = new PbOccurrences();
        }
        this.oneofCase = new int[oneofs.size()];
    }

    /** Binds the columns to the vectors of a batch's root (the record's message). */
    void bind(List<FieldVector> vectors) {
        for (int c = 0; c < columns.length; c++) {
            columns[c].bind(vectors.get(c));
        }
    }

    /** Binds to a ROW column: each slot read is marked non-null. */
    void bind(StructVector vector) {
        this.struct = vector;
        for (int c = 0; c < columns.length; c++) {
            columns[c].bind((FieldVector) vector.getChildByOrdinal(c));
        }
    }

    /** Reads the message {@code [start, end)} into slot {@code index}. */
    void readOne(PbInput in, int start, int end, int index) {
        one.count = 0;
        one.add(start, end, PbWire.LENGTH_DELIMITED);
        read(in, one, 0, index);
    }

    /** Reads the message made of {@code segments [from, count)} one after the other (none: the default instance). */
    void read(PbInput in, PbOccurrences segments, int from, int index) {
        scan(in, segments, from, false, 0);
        materialize(in, index);
    }

    /**
     * Reads a whole record into row {@code index}, checking all of it (every known field, at every depth) as
     * protobuf-java's parser does; its nested messages are then read without checking them again.
     */
    void readRecord(PbInput in, int index) {
        one.count = 0;
        one.add(in.pos, in.limit, PbWire.LENGTH_DELIMITED);
        scan(in, one, 0, true, 0);
        materialize(in, index);
    }

    private void scan(PbInput in, PbOccurrences segments, int from, boolean check, int depth) {
        for (PbOccurrences occurrence : occurrences) {
            occurrence.count = 0;
        }
        Arrays.fill(oneofCase, -1);
        int limit = in.limit;
        int f = -1;
        try {
            for (int s = from; s < segments.count; s++) {
                in.pos = segments.starts[s];
                in.limit = segments.ends[s];
                for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                    f = shape.indexOf(tag >>> 3);
                    int wireType = tag & 7;
                    if (f < 0 || !shape.accepts(f, wireType)) {
                        f = -1;
                        in.skipField(tag, depth);
                        continue;
                    }
                    int start;
                    int end;
                    if (wireType == PbWire.LENGTH_DELIMITED) {
                        end = in.readLength() + in.pos;
                        start = in.pos;
                        if (check) {
                            shape.checkValue(in, f, wireType, end, depth);
                        }
                        in.pos = end;
                    } else {
                        start = in.pos;
                        shape.checkValue(in, f, wireType, in.limit, depth);
                        end = in.limit;
                        if (closedSingular[f] && !shape.declares(f, start, in)) {
                            continue; // protobuf-java keeps it among the unknown fields
                        }
                    }
                    if (oneofOf[f] >= 0) {
                        oneofCase[oneofOf[f]] = f;
                    }
                    int column = columnOf[f];
                    if (column >= 0) {
                        occurrences[column].add(start, end, wireType);
                    }
                }
            }
        } catch (PbInput.Malformed e) {
            throw f < 0 ? e.at(path.isEmpty() ? null : path) : e.within(fieldPath(f));
        } finally {
            in.limit = limit;
        }
    }

    private String fieldPath(int f) {
        String name = shape.field(f).getName();
        return path.isEmpty() ? name : path + "." + name;
    }

    private void materialize(PbInput in, int index) {
        if (struct != null) {
            struct.setIndexDefined(index);
        }
        for (int c = 0; c < columns.length; c++) {
            PbFieldReader column = columns[c];
            PbOccurrences occurrence = occurrences[c];
            int oneof = oneofOf[column.field];
            int from = oneof < 0 || oneofCase[oneof] == column.field ? 0 : occurrence.count;
            try {
                column.read(in, occurrence, from, index);
            } catch (PbInput.Malformed e) {
                throw e.at(column.path);
            }
        }
    }
}
