package io.columnarkafka.flink.table;

import java.io.Serializable;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.operators.sink.constraint.ConstraintEnforcerExecutor;

/**
 * The per-row steps Flink's {@code CommonExecSink} puts as operators in front of a table sink fed rows, run by the
 * encode operator on the row it was handed, so no chained hop (and, with object reuse off, no deep copy of the row)
 * lies between them and the encoder: Flink's own {@code ConstraintEnforcerExecutor} (the per-row entry point of its
 * {@code ConstraintEnforcer} operator, built by the planner stage exactly as {@code
 * CommonExecSink.applyConstraintValidations} builds it), then what {@code StreamRecordTimestampInserter} does.
 */
public final class SinkRowHead implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The precision {@code CommonExecSink} gives {@code StreamRecordTimestampInserter(rowtimeFieldIndex)}. */
    private static final int ROWTIME_PRECISION = 3;

    private final ConstraintEnforcerExecutor enforcer;
    private final String enforcerName;
    private final int rowtimeIndex;

    /**
     * @param enforcer Flink's executor for the sink's constraints, or null when Flink adds no enforcer
     * @param enforcerName the name Flink gives its {@code ConstraintEnforcer} operator, or null without one
     * @param rowtimeIndex the input's rowtime field Flink's sink node writes into the record timestamp, or -1
     */
    public SinkRowHead(ConstraintEnforcerExecutor enforcer, String enforcerName, int rowtimeIndex) {
        this.enforcer = enforcer;
        this.enforcerName = enforcerName;
        this.rowtimeIndex = rowtimeIndex;
    }

    /**
     * The row to encode, or null for a row Flink's enforcer drops; throws Flink's {@code EnforcerException} where
     * its enforcer fails the job.
     */
    RowData apply(StreamRecord<RowData> element) {
        RowData row = enforcer == null ? element.getValue() : enforcer.enforce(element.getValue());
        if (row != null && rowtimeIndex >= 0) {
            // StreamRecordTimestampInserter's step. Nothing after it reads the record timestamp here: the encoder
            // writes a Kafka timestamp only from a `timestamp` metadata column (a sink with metadata columns keeps
            // Flink's node), and the batches it emits carry none. The step stays so that a null rowtime fails the
            // job as it does in Flink's operator.
            element.setTimestamp(row.getTimestamp(rowtimeIndex, ROWTIME_PRECISION).getMillisecond());
        }
        return row;
    }

    /** Flink's names of the operators this head stands for, e.g. for the encode operator's name; empty if none. */
    public String describe() {
        String inserter = rowtimeIndex < 0 ? null
                : "StreamRecordTimestampInserter(rowtime field: " + rowtimeIndex + ")";
        if (enforcerName == null) {
            return inserter == null ? "" : inserter;
        }
        return inserter == null ? enforcerName : enforcerName + ", " + inserter;
    }

    /** True when the head does nothing: Flink's sink node would add no operator either. */
    public boolean isEmpty() {
        return enforcer == null && rowtimeIndex < 0;
    }
}
