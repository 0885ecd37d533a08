package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.FieldDescriptor;

/** What a writer needs to know of its protobuf field: number, wire type and presence. */
record PbField(int number, int wireType, boolean presence, boolean required) {
    /** The field as written on its own (a repeated field's elements: see {@link #element}). */
    static PbField of(FieldDescriptor fd) {
        return new PbField(fd.getNumber(), wireType(fd.getType()), fd.hasPresence(), fd.isRequired());
    }

    /** The same field number with the element's own wire type. */
    static PbField element(FieldDescriptor fd) {
        return new PbField(fd.getNumber(), wireType(fd.getType()), true, false);
    }

    /** A repeated field written packed: one length-delimited value. */
    static PbField packed(FieldDescriptor fd) {
        return new PbField(fd.getNumber(), PbWire.LENGTH_DELIMITED, true, false);
    }

    static int wireType(FieldDescriptor.Type type) {
        switch (type) {
            case DOUBLE:
            case FIXED64:
            case SFIXED64:
                return PbWire.FIXED64;
            case FLOAT:
            case FIXED32:
            case SFIXED32:
                return PbWire.FIXED32;
            case STRING:
            case BYTES:
            case MESSAGE:
                return PbWire.LENGTH_DELIMITED;
            default:
                return PbWire.VARINT;
        }
    }
}
