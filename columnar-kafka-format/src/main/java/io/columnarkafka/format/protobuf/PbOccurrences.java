package io.columnarkafka.format.protobuf;

import java.util.Arrays;

/**
 * Where one field occurred in one message, in wire order: per occurrence the value's wire type, its bytes
 * (a length-delimited value: its payload, without the length) and its sequence number among all the
 * message's fields (which orders the members of a oneof). Reused for every message the reader reads.
 */
final class PbOccurrences {
    int[] starts = new int[4];
    int[] ends = new int[4];
    int[] wireTypes = new int[4];
    int[] sequence = new int[4];
    int count;

    void add(int start, int end, int wireType, int seq) {
        if (count == starts.length) {
            int capacity = count * 2;
            starts = Arrays.copyOf(starts, capacity);
            ends = Arrays.copyOf(ends, capacity);
            wireTypes = Arrays.copyOf(wireTypes, capacity);
            sequence = Arrays.copyOf(sequence, capacity);
        }
        starts[count] = start;
        ends[count] = end;
        wireTypes[count] = wireType;
        sequence[count] = seq;
        count++;
    }

    /** The first occurrence numbered {@code seq} or later. */
    int firstFrom(int seq) {
        int i = 0;
        while (i < count && sequence[i] < seq) {
            i++;
        }
        return i;
    }
}
