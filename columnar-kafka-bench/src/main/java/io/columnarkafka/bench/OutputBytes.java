package io.columnarkafka.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** Bytes written; JMH zeroes it each iteration and reports it per second (÷ rows/s = B/row). */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class OutputBytes {
    public long outputBytes;
}
