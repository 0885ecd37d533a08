package io.columnarkafka.format.avro;

import org.apache.arrow.vector.FieldVector;
import org.apache.avro.Schema;

/**
 * The readers a writer schema other than the reader's needs, beside {@link AvroReaders} (which read a value of the
 * reader's own schema): a union branch the writer chose, a null the writer wrote, a promoted number, an error Avro
 * raises only when a record reaches it. {@link WriterResolution} plans them from Avro's {@code Resolver}, the rules
 * Avro's {@code ResolvingDecoder} follows when Flink's {@code RegistryAvroDeserializationSchema} reads a record with
 * the writer schema of its id against the reader schema of the row type. Union branches are explicit readers here,
 * so every reader below is planned without the reader-side {@code nullable} flag.
 */
final class ResolvingReaders {
    private ResolvingReaders() {}

    /** A reader that writes into no vector of its own, only into the one its slot is bound to. */
    abstract static class Slot extends AvroFieldReader {
        FieldVector vector;

        Slot(String path) {
            super(path, false);
        }

        @Override
        void bind(FieldVector vector) {
            this.vector = vector;
        }

        @Override
        FieldVector vector() {
            return vector;
        }
    }

    /** The writer wrote null (its union's null branch, or a null schema) into a nullable column. */
    static final class NullReader extends Slot {
        NullReader(String path) {
            super(path);
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setNull(index);
        }

        @Override
        void skipValue(AvroInput in) {}
    }

    /** The writer's union: its branch index, then the value of that branch resolved against the reader. */
    static final class WriterUnionReader extends Slot {
        private final AvroFieldReader[] branches;

        WriterUnionReader(String path, AvroFieldReader[] branches) {
            super(path);
            this.branches = branches;
        }

        @Override
        void bind(FieldVector vector) {
            super.bind(vector);
            for (AvroFieldReader branch : branches) {
                branch.bind(vector);
            }
        }

        private AvroFieldReader branch(AvroInput in) {
            int branch = in.readInt();
            if (branch < 0 || branch >= branches.length) {
                throw new AvroInput.Malformed("union branch " + branch + " of a " + branches.length + "-branch union");
            }
            return branches[branch];
        }

        @Override
        void readValue(AvroInput in, int index) {
            branch(in).readValue(in, index);
        }

        @Override
        void skipValue(AvroInput in) {
            branch(in).skipValue(in);
        }
    }

    /**
     * A number the writer wrote as a narrower type (int to long, float or double; long to float or double; float to
     * double), widened as Avro's {@code ResolvingDecoder} widens it (a Java cast) and handed to the reader of the
     * column's own type re-encoded, so that reader's conversion (e.g. a timestamp's milliseconds) applies unchanged.
     */
    static final class PromotedReader extends Slot {
        private final Schema.Type from;
        private final Schema.Type to;
        private final AvroFieldReader target;
        private final AvroInput widened = new AvroInput();
        private final byte[] scratch = new byte[10];

        PromotedReader(String path, Schema.Type from, Schema.Type to, AvroFieldReader target) {
            super(path);
            this.from = from;
            this.to = to;
            this.target = target;
        }

        @Override
        void bind(FieldVector vector) {
            super.bind(vector);
            target.bind(vector);
        }

        @Override
        void readValue(AvroInput in, int index) {
            int length;
            switch (to) {
                case LONG:
                    length = AvroBinary.putLong(scratch, 0, in.readInt());
                    break;
                case FLOAT:
                    float f = from == Schema.Type.INT ? (float) in.readInt() : (float) in.readLong();
                    length = putFixed(Float.floatToRawIntBits(f), 4);
                    break;
                default: // DOUBLE
                    double d = from == Schema.Type.INT ? (double) in.readInt()
                            : from == Schema.Type.LONG ? (double) in.readLong()
                            : (double) Float.intBitsToFloat(in.readFixedInt());
                    length = putFixed(Double.doubleToRawLongBits(d), 8);
                    break;
            }
            widened.reset(scratch, 0, length);
            target.readValue(widened, index);
        }

        private int putFixed(long bits, int bytes) {
            for (int i = 0; i < bytes; i++) {
                scratch[i] = (byte) (bits >>> (8 * i));
            }
            return bytes;
        }

        @Override
        void skipValue(AvroInput in) {
            switch (from) {
                case INT -> in.readInt();
                case LONG -> in.readLong();
                default -> in.readFixedInt();
            }
        }
    }

    /**
     * A writer and reader schema Avro cannot resolve here (a missing field without default, incompatible types, no
     * matching union branch): Avro raises it lazily, when a record reaches this value, with this message.
     */
    static final class ErrorReader extends Slot {
        private final String message;

        ErrorReader(String path, String message) {
            super(path);
            this.message = message;
        }

        @Override
        void readValue(AvroInput in, int index) {
            throw new AvroInput.Malformed(message + " (AvroTypeException)");
        }

        @Override
        void skipValue(AvroInput in) {
            readValue(in, 0);
        }
    }

    /**
     * An Avro enum into a STRING column (the reader schema's enum, Flink's {@code createEnum(symbol)} then {@code
     * toString()}): the writer's index mapped as Avro's {@code ResolvingDecoder.readEnum} maps it ({@link
     * org.apache.avro.Resolver.EnumAdjust}: unchanged when no adjustment is needed, else the reader index of the
     * writer's symbol, the reader's default symbol, or an error), then the reader's symbol.
     */
    static final class EnumReader extends AvroReaders.Typed<org.apache.arrow.vector.BaseVariableWidthVector> {
        /** The reader's symbols, UTF-8. */
        private final byte[][] symbols;
        /** Per writer index, the reader index (-1: no match); null when the writer's index is the reader's. */
        private final int[] adjustments;
        private final java.util.List<String> writerSymbols;

        EnumReader(String path, org.apache.avro.Resolver.EnumAdjust adjust) {
            super(path, false);
            this.symbols = adjust.reader.getEnumSymbols().stream()
                    .map(symbol -> symbol.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toArray(byte[][]::new);
            this.adjustments = adjust.noAdjustmentsNeeded ? null : adjust.adjustments;
            this.writerSymbols = adjust.writer.getEnumSymbols();
        }

        private int symbol(AvroInput in) {
            int n = in.readInt();
            int limit = adjustments == null ? symbols.length : adjustments.length;
            if (n < 0 || n >= limit) {
                throw new AvroInput.Malformed("enum index " + n + " of " + limit + " symbols");
            }
            if (adjustments == null) {
                return n;
            }
            if (adjustments[n] < 0) {
                throw new AvroInput.Malformed("No match for " + writerSymbols.get(n) + " (AvroTypeException)");
            }
            return adjustments[n];
        }

        @Override
        void readValue(AvroInput in, int index) {
            byte[] symbol = symbols[symbol(in)];
            vector.setSafe(index, symbol, 0, symbol.length);
        }

        @Override
        void skipValue(AvroInput in) {
            symbol(in);
        }
    }

    /**
     * A reader-only field's default, as Avro's {@code ResolvingDecoder} reads it: the default encoded once with the
     * reader field's schema ({@code ResolvingGrammarGenerator.encode}, what its default action reads), read per
     * record by the reader of that schema into the field's vector.
     */
    static final class DefaultReader extends Slot {
        private final byte[] encoded;
        private final AvroFieldReader value;
        private final AvroInput input = new AvroInput();

        DefaultReader(String path, byte[] encoded, AvroFieldReader value) {
            super(path);
            this.encoded = encoded;
            this.value = value;
        }

        @Override
        void bind(FieldVector vector) {
            super.bind(vector);
            value.bind(vector);
        }

        @Override
        void readValue(AvroInput in, int index) {
            input.reset(encoded, 0, encoded.length);
            value.readValue(input, index);
        }

        @Override
        void skipValue(AvroInput in) {}
    }

    /** A nested ROW the writer wrote with other fields: {@link ResolvedFields} into the struct's children. */
    static final class ResolvedRecordReader extends AvroReaders.Typed<org.apache.arrow.vector.complex.StructVector> {
        private final ResolvedFields fields;

        ResolvedRecordReader(String path, ResolvedFields fields) {
            super(path, false);
            this.fields = fields;
        }

        @Override
        void bind(FieldVector vector) {
            super.bind(vector);
            fields.bind(this.vector.getChildrenFromFields());
        }

        @Override
        void readValue(AvroInput in, int index) {
            vector.setIndexDefined(index);
            fields.read(in, index);
        }

        @Override
        void skipValue(AvroInput in) {
            fields.skip(in);
        }
    }
}
