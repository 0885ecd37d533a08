package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.columnarkafka.format.Utf8Bytes;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;

/**
 * What the wire bytes of one message type must look like, field by field, as protobuf-java's generated
 * parser checks them while it builds the whole message (also the fields no column reads): a known field with
 * its own wire type (or, repeated and packable, length-delimited) is parsed, strings with UTF-8 validation
 * where {@code FieldDescriptor.needsUtf8Check()} (proto3, map entries) must be well-formed, nested messages
 * are checked within 100 levels; any other field goes to the unknown fields ({@link PbInput#skipField}).
 *
 * <p>One shape per message type, shared by every reader of that type (recursive types link to themselves).
 */
final class PbShape {
    private static final int VARINT = 0;
    private static final int FIXED32 = 1;
    private static final int FIXED64 = 2;
    private static final int STRING = 3;
    private static final int BYTES = 4;
    private static final int MESSAGE = 5;

    private final Descriptor descriptor;
    /** Field numbers, ascending. */
    private final int[] numbers;
    private final FieldDescriptor[] fields;
    private final int[] kinds;
    private final boolean[] packable;
    private final boolean[] utf8;
    private final PbShape[] messages;
    /** Per closed-enum field: the numbers its enum declares, ascending; else null. */
    private final int[][] declared;

    private PbShape(Descriptor descriptor) {
        this.descriptor = descriptor;
        FieldDescriptor[] sorted = descriptor.getFields().toArray(new FieldDescriptor[0]);
        Arrays.sort(sorted, Comparator.comparingInt(FieldDescriptor::getNumber));
        int n = sorted.length;
        this.fields = sorted;
        this.numbers = new int[n];
        this.kinds = new int[n];
        this.packable = new boolean[n];
        this.utf8 = new boolean[n];
        this.messages = new PbShape[n];
        this.declared = new int[n][];
        for (int i = 0; i < n; i++) {
            FieldDescriptor fd = sorted[i];
            numbers[i] = fd.getNumber();
            kinds[i] = kind(fd);
            packable[i] = fd.isRepeated() && kinds[i] <= FIXED64;
            utf8[i] = fd.needsUtf8Check();
            if (fd.getJavaType() == FieldDescriptor.JavaType.ENUM && fd.legacyEnumFieldTreatedAsClosed()) {
                declared[i] = fd.getEnumType().getValues().stream().mapToInt(v -> v.getNumber()).sorted().toArray();
            }
        }
    }

    /** The shape of {@code descriptor}, from {@code shapes} (which holds every shape built for one plan). */
    static PbShape of(Descriptor descriptor, Map<Descriptor, PbShape> shapes) {
        PbShape shape = shapes.get(descriptor);
        if (shape != null) {
            return shape;
        }
        String syntax = descriptor.getFile().toProto().getSyntax();
        if (!syntax.isEmpty() && !syntax.equals("proto2") && !syntax.equals("proto3")) {
            throw new IllegalArgumentException("protobuf message " + descriptor.getFullName() + " is declared with"
                    + " syntax '" + syntax + "'; the columnar decoder reads proto2 and proto3 only");
        }
        for (FieldDescriptor fd : descriptor.getFields()) {
            if (fd.isRequired()) {
                // parseFrom checks required fields on the merged message (a field may come in a later occurrence)
                throw new IllegalArgumentException("protobuf message " + descriptor.getFullName() + " has the required"
                        + " field '" + fd.getName() + "'; the columnar decoder does not reproduce protobuf-java's"
                        + " check of required fields");
            }
        }
        shape = new PbShape(descriptor);
        shapes.put(descriptor, shape);
        for (int i = 0; i < shape.fields.length; i++) {
            if (shape.kinds[i] == MESSAGE) {
                shape.messages[i] = of(shape.fields[i].getMessageType(), shapes);
            }
        }
        return shape;
    }

    private static int kind(FieldDescriptor fd) {
        switch (fd.getType()) {
            case DOUBLE:
            case FIXED64:
            case SFIXED64:
                return FIXED64;
            case FLOAT:
            case FIXED32:
            case SFIXED32:
                return FIXED32;
            case STRING:
                return STRING;
            case BYTES:
                return BYTES;
            case MESSAGE:
                return MESSAGE;
            case GROUP:
                throw new IllegalArgumentException("protobuf field " + fd.getFullName()
                        + " is a group, which the columnar decoder does not read");
            default:
                return VARINT;
        }
    }

    Descriptor descriptor() {
        return descriptor;
    }

    /** The index of the field numbered {@code number}, or -1 if the message declares none. */
    int indexOf(int number) {
        int index = Arrays.binarySearch(numbers, number);
        return index >= 0 ? index : -1;
    }

    /** The index of {@code fd}, a field of this message. */
    int indexOf(FieldDescriptor fd) {
        return indexOf(fd.getNumber());
    }

    /** True if protobuf-java parses a value of wire type {@code wireType} as field {@code index}. */
    boolean accepts(int index, int wireType) {
        return wireType == PbField.wireType(fields[index].getType())
                || (packable[index] && wireType == PbWire.LENGTH_DELIMITED);
    }

    /**
     * Checks the payload {@code [in.pos, end)} of field {@code index} read with {@code wireType} (for a
     * length-delimited value its length is already read) and leaves {@code in.pos} after it; {@code depth}:
     * the nesting of the message holding the field.
     */
    void checkValue(PbInput in, int index, int wireType, int end, int depth) {
        if (wireType != PbWire.LENGTH_DELIMITED) {
            skipScalar(in, kinds[index]);
            return;
        }
        switch (kinds[index]) {
            case STRING:
                if (utf8[index] && !Utf8Bytes.isWellFormed(in.buf, in.pos, end)) {
                    throw new PbInput.Malformed("Protocol message had invalid UTF-8.");
                }
                in.pos = end;
                return;
            case BYTES:
                in.pos = end;
                return;
            case MESSAGE:
                messages[index].checkMessage(in, end, depth + 1);
                return;
            default: // a packed run
                int limit = in.limit;
                in.limit = end;
                while (in.pos < end) {
                    skipScalar(in, kinds[index]);
                }
                in.limit = limit;
        }
    }

    private static void skipScalar(PbInput in, int kind) {
        switch (kind) {
            case FIXED32:
                in.readFixed32();
                return;
            case FIXED64:
                in.readFixed64();
                return;
            default:
                in.readVarint64();
        }
    }

    /** Checks a whole message {@code [in.pos, end)} nested {@code depth} deep (the record is depth 0). */
    void checkMessage(PbInput in, int end, int depth) {
        if (depth > PbInput.RECURSION_LIMIT) {
            throw new PbInput.Malformed("Protocol message had too many levels of nesting.");
        }
        int limit = in.limit;
        in.limit = end;
        int index = -1;
        try {
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                index = indexOf(tag >>> 3);
                int wireType = tag & 7;
                if (index < 0 || !accepts(index, wireType)) {
                    index = -1;
                    in.skipField(tag, depth);
                    continue;
                }
                int valueEnd = wireType == PbWire.LENGTH_DELIMITED ? in.readLength() + in.pos : in.limit;
                checkValue(in, index, wireType, valueEnd, depth);
            }
        } catch (PbInput.Malformed e) {
            throw index < 0 ? e : e.within(fields[index].getName());
        }
        in.limit = limit;
    }

    /** Field {@code index} is an enum that drops numbers it does not declare into the unknown fields (proto2). */
    boolean closedEnum(int index) {
        return declared[index] != null;
    }

    /** True if the closed enum field {@code index} declares the number (a varint) at {@code start}. */
    boolean declares(int index, int start, PbInput in) {
        int end = in.pos;
        in.pos = start;
        int number = in.readVarint32();
        in.pos = end;
        return Arrays.binarySearch(declared[index], number) >= 0;
    }

    FieldDescriptor field(int index) {
        return fields[index];
    }

    int fieldCount() {
        return fields.length;
    }
}
