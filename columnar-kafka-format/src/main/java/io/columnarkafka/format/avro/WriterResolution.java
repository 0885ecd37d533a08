package io.columnarkafka.format.avro;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.avro.JsonProperties;
import org.apache.avro.Resolver;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.parsing.ResolvingGrammarGenerator;
import org.apache.avro.util.internal.Accessor;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * How records of one writer schema are read into the rows of the reader's row type: planned once per schema id
 * from Avro's own {@link Resolver} (the rules of the {@code ResolvingDecoder} Flink's {@code
 * RegistryAvroDeserializationSchema} reads with: fields matched by name whatever their order, writer-only fields
 * skipped, reader-only fields defaulted, numbers promoted, union branches matched), each value read by the reader of
 * its column's own type ({@link AvroReaderPlan}), so Flink's conversions apply as for the plain {@code avro} format.
 * A writer schema equal to the reader's takes {@link AvroReaderPlan}'s readers as they are.
 */
final class WriterResolution {
    /** Per writer union branch (one entry when the writer's record is not in a union): its fields, or an error. */
    private final ResolvedFields[] branches;
    private final String[] errors;
    private final boolean writerUnion;
    /** The batch whose vectors this plan is bound to (the decoder's count). */
    int boundBatch = -1;
    /** The branch the last record took, for {@link #failedField}. */
    private ResolvedFields current;

    private WriterResolution(ResolvedFields[] branches, String[] errors, boolean writerUnion) {
        this.branches = branches;
        this.errors = errors;
        this.writerUnion = writerUnion;
    }

    /**
     * The plan of records written with {@code writer}, read as {@code reader}, the schema of {@code rowType}
     * ({@code derivedReader}: the one Flink derives from it, whose encoding the plain readers read).
     */
    static WriterResolution plan(Schema writer, Schema reader, boolean derivedReader, RowType rowType) {
        if (derivedReader && writer.equals(reader)) {
            return new WriterResolution(new ResolvedFields[] {ResolvedFields.inOrder(AvroReaderPlan.fields("", rowType))},
                    new String[1], false);
        }
        Resolver.Action action = readerBranch(Resolver.resolve(writer, reader));
        if (action instanceof Resolver.WriterUnion union) {
            int n = union.actions.length;
            ResolvedFields[] branches = new ResolvedFields[n];
            String[] errors = new String[n];
            for (int i = 0; i < n; i++) {
                plant(union.actions[i], rowType, branches, errors, i);
            }
            return new WriterResolution(branches, errors, true);
        }
        ResolvedFields[] branches = new ResolvedFields[1];
        String[] errors = new String[1];
        plant(action, rowType, branches, errors, 0);
        return new WriterResolution(branches, errors, false);
    }

    /** A given reader schema may be a union holding the record: the branch Avro's resolution chose. */
    private static Resolver.Action readerBranch(Resolver.Action action) {
        return action instanceof Resolver.ReaderUnion union ? union.actualAction : action;
    }

    private static void plant(Resolver.Action branch, RowType rowType, ResolvedFields[] branches, String[] errors, int i) {
        Resolver.Action action = readerBranch(branch);
        if (action instanceof Resolver.RecordAdjust record) {
            branches[i] = fields(record, "", rowType);
        } else {
            errors[i] = action.toString(); // an ErrorAction: a writer type that is no record of the reader's fields
        }
    }

    void bind(List<FieldVector> vectors) {
        for (ResolvedFields branch : branches) {
            if (branch != null) {
                branch.bind(vectors);
            }
        }
    }

    /** Reads one record into row {@code row}. */
    void read(AvroInput in, int row) {
        current = null;
        int branch = 0;
        if (writerUnion) {
            branch = in.readInt();
            if (branch < 0 || branch >= branches.length) {
                throw new AvroInput.Malformed("union branch " + branch + " of a " + branches.length + "-branch union");
            }
        }
        if (branches[branch] == null) {
            throw new AvroInput.Malformed(errors[branch] + " (AvroTypeException)");
        }
        current = branches[branch];
        current.field = null;
        current.read(in, row);
    }

    /** The field being read when {@link #read} threw (null for the record as a whole). */
    String failedField() {
        return current == null ? null : current.field;
    }

    private static ResolvedFields fields(Resolver.RecordAdjust record, String prefix, RowType row) {
        Resolver.Action[] actions = record.fieldActions;
        AvroFieldReader[] writerOrder = new AvroFieldReader[actions.length];
        int[] readerIndex = new int[actions.length];
        int matched = 0;
        for (int i = 0; i < actions.length; i++) {
            String writerName = record.writer.getFields().get(i).name();
            if (actions[i] instanceof Resolver.Skip) {
                writerOrder[i] = WriterSkip.of(prefix + writerName, actions[i].writer);
                readerIndex[i] = -1;
            } else {
                Schema.Field field = record.readerOrder[matched++];
                readerIndex[i] = field.pos();
                writerOrder[i] = reader(actions[i], prefix + field.name(), row.getTypeAt(field.pos()));
            }
        }
        int[] defaulted = new int[record.readerOrder.length - record.firstDefault];
        AvroFieldReader[] defaults = new AvroFieldReader[defaulted.length];
        for (int i = 0; i < defaulted.length; i++) {
            Schema.Field field = record.readerOrder[record.firstDefault + i];
            defaulted[i] = field.pos();
            String path = prefix + field.name();
            defaults[i] = field.defaultVal() == JsonProperties.NULL_VALUE ? new ResolvingReaders.NullReader(path)
                    : new ResolvingReaders.DefaultReader(path, encodedDefault(field),
                            reader(Resolver.resolve(field.schema(), field.schema()), path, row.getTypeAt(field.pos())));
        }
        return new ResolvedFields(writerOrder, readerIndex, defaulted, defaults);
    }

    /** The default of {@code field} in Avro binary, as Avro's {@code ResolvingGrammarGenerator} encodes it to read it. */
    private static byte[] encodedDefault(Schema.Field field) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            ResolvingGrammarGenerator.encode(encoder, field.schema(), Accessor.defaultValue(field));
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The reader of one resolved value into a column of Flink type {@code type} (its union handled here). */
    private static AvroFieldReader reader(Resolver.Action action, String path, LogicalType type) {
        LogicalType value = type.copy(false);
        switch (action.type) {
            case WRITER_UNION: {
                Resolver.WriterUnion union = (Resolver.WriterUnion) action;
                AvroFieldReader[] branches = new AvroFieldReader[union.actions.length];
                for (int i = 0; i < branches.length; i++) {
                    branches[i] = reader(union.actions[i], path, type);
                }
                return new ResolvingReaders.WriterUnionReader(path, branches);
            }
            case READER_UNION: {
                Resolver.ReaderUnion union = (Resolver.ReaderUnion) action;
                return reader(union.actualAction, path, value);
            }
            case DO_NOTHING:
                switch (action.reader.getType()) {
                    case NULL:
                        return new ResolvingReaders.NullReader(path);
                    case FIXED: // a given reader schema's fixed: VARBINARY(size) or DECIMAL, no length before the bytes
                        return value instanceof DecimalType decimal
                                ? new AvroReaders.DecimalReader(path, false, decimal.getPrecision(), decimal.getScale(),
                                        action.reader.getFixedSize())
                                : new AvroReaders.BinaryReader(path, false, action.reader.getFixedSize());
                    default:
                        return AvroReaderPlan.reader(path, value);
                }
            case ENUM: // a given reader schema's enum, into a STRING column
                return new ResolvingReaders.EnumReader(path, (Resolver.EnumAdjust) action);
            case PROMOTE: {
                AvroFieldReader target = AvroReaderPlan.reader(path, value);
                Schema.Type from = action.writer.getType();
                // string and bytes share their encoding: the column's reader reads either
                return from == Schema.Type.STRING || from == Schema.Type.BYTES ? target
                        : new ResolvingReaders.PromotedReader(path, from, action.reader.getType(), target);
            }
            case CONTAINER: {
                Resolver.Action element = ((Resolver.Container) action).elementAction;
                if (action.reader.getType() == Schema.Type.ARRAY) {
                    return new AvroReaders.ArrayReader(path, false,
                            reader(element, path + "[]", ((ArrayType) value).getElementType()));
                }
                return new MapAvroReader(path, false, reader(element, path + "{}", AvroSchemas.mapValueType(value)));
            }
            case RECORD:
                return new ResolvingReaders.ResolvedRecordReader(path,
                        fields((Resolver.RecordAdjust) action, path + ".", (RowType) value));
            case ERROR:
                return new ResolvingReaders.ErrorReader(path, action.toString());
            default: // SKIP: planned by fields()
                throw new IllegalStateException("unexpected resolution " + action.type + " at '" + path + "'");
        }
    }
}
