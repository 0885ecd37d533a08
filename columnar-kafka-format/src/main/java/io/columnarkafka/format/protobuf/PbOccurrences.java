package io.columnarkafka.format.protobuf;

import java.util.Arrays;

/**
 * Where one field occurred in one message, in wire order: per occurrence the value's wire type, where it
 * starts and where it ends: a length-delimited value by its payload (without the length), another value by
 * the end of the message bytes holding it (the limit protobuf-java reads it under, see {@link
 * PbInput#readVarint64}). Reused for every message the reader reads.
 */
final class PbOccurrences {
    int[] starts = new int[4];
    int[] ends = new int[4];
    int[] wireTypes = new int[4];
    int count;

    void add(int start, int end, int wireType) {
        if (count == starts.length) {
            int capacity = count * 2;
            starts = Arrays.copyOf(starts, capacity);
            ends = Arrays.copyOf(ends, capacity);
            wireTypes = Arrays.copyOf(wireTypes, capacity);
        }
        starts[count] = start;
        ends[count] = end;
        wireTypes[count] = wireType;
        count++;
    }
}
