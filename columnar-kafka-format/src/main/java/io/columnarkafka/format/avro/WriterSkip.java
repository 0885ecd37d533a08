package io.columnarkafka.format.avro;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.avro.Schema;

/**
 * Moves past a value of a writer field the reader does not have, as Avro's {@code ResolvingDecoder} skips it (its
 * {@code skipAction}, {@code BinaryDecoder.skipString/skipArray/skipMap}): numbers and booleans are read, strings,
 * bytes and fixed values jumped over by their length, array and map blocks with a negative count jumped over by
 * their byte size (their items not looked at), other blocks item by item. A jump past the record's end fails as
 * Avro's {@code EOFException} does. A negative length or byte size, where Avro moves its position back and reads
 * earlier bytes again, fails the record instead (a known difference; no Avro writer produces one).
 */
final class WriterSkip extends AvroFieldReader {
    private final Schema.Type type;
    private final int fixedSize;
    /** Array elements, map values, record fields or union branches, by the writer's order. */
    private WriterSkip[] children;

    private WriterSkip(String path, Schema schema) {
        super(path, false);
        this.type = schema.getType();
        this.fixedSize = type == Schema.Type.FIXED ? schema.getFixedSize() : 0;
    }

    /** The skip of {@code schema} (recursive schemas reuse their node). */
    static WriterSkip of(String path, Schema schema) {
        return of(path, schema, new IdentityHashMap<>());
    }

    private static WriterSkip of(String path, Schema schema, Map<Schema, WriterSkip> planned) {
        WriterSkip known = planned.get(schema);
        if (known != null) {
            return known;
        }
        WriterSkip skip = new WriterSkip(path, schema);
        planned.put(schema, skip);
        List<Schema> parts = switch (skip.type) {
            case ARRAY -> List.of(schema.getElementType());
            case MAP -> List.of(schema.getValueType());
            case UNION -> schema.getTypes();
            case RECORD -> schema.getFields().stream().map(Schema.Field::schema).toList();
            default -> List.of();
        };
        skip.children = new WriterSkip[parts.size()];
        for (int i = 0; i < parts.size(); i++) {
            skip.children[i] = of(path, parts.get(i), planned);
        }
        return skip;
    }

    @Override
    void bind(FieldVector vector) {}

    @Override
    FieldVector vector() {
        return null;
    }

    @Override
    void readValue(AvroInput in, int index) {
        skipValue(in);
    }

    @Override
    void skipValue(AvroInput in) {
        switch (type) {
            case NULL:
                break;
            case BOOLEAN:
                in.readBoolean();
                break;
            case INT:
            case ENUM:
                in.readInt();
                break;
            case LONG:
                in.readLong();
                break;
            case FLOAT:
                in.readFixedInt();
                break;
            case DOUBLE:
                in.readFixedLong();
                break;
            case STRING:
            case BYTES:
                jump(in, in.readLong());
                break;
            case FIXED:
                jump(in, fixedSize);
                break;
            case ARRAY:
                for (long count = items(in); count != 0; count = items(in)) {
                    for (long k = 0; k < count; k++) {
                        children[0].skipValue(in);
                    }
                }
                break;
            case MAP:
                for (long count = items(in); count != 0; count = items(in)) {
                    for (long k = 0; k < count; k++) {
                        jump(in, in.readLong());
                        children[0].skipValue(in);
                    }
                }
                break;
            case RECORD:
                for (WriterSkip field : children) {
                    field.skipValue(in);
                }
                break;
            case UNION:
                int branch = in.readInt();
                if (branch < 0 || branch >= children.length) {
                    throw new AvroInput.Malformed("union branch " + branch + " of a " + children.length + "-branch union");
                }
                children[branch].skipValue(in);
                break;
            default:
                throw new IllegalStateException("unknown Avro type " + type);
        }
    }

    /** The count of the next block to skip item by item, blocks with a byte size jumped over (Avro's doSkipItems). */
    private static long items(AvroInput in) {
        long count = in.readLong();
        while (count < 0) {
            jump(in, in.readLong());
            count = in.readLong();
        }
        return count;
    }

    private static void jump(AvroInput in, long length) {
        if (length < 0) {
            throw new AvroInput.Malformed("a negative length " + length + " in a field the reader skips (Avro would"
                    + " read earlier bytes again; not reproduced)");
        }
        if (length > in.end - in.pos) {
            in.pos = in.end;
            throw new AvroInput.Malformed("unexpected end of the record (EOFException)");
        }
        in.pos += (int) length;
    }
}
