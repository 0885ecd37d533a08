package io.columnarkafka.flink.table;

import java.io.Serializable;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.operators.sink.constraint.ConstraintEnforcerExecutor;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The per-row steps Flink's {@code CommonExecSink} puts as operators in front of a table sink fed rows, run by the
 * encode operator on the row it was handed, so no chained hop (and, with object reuse off, no deep copy of the row)
 * lies between them and the encoder: Flink's Calc before the sink where the planner stage took it in ({@link
 * SinkRowCalc}), Flink's own {@code ConstraintEnforcerExecutor} (the per-row entry point of its {@code
 * ConstraintEnforcer} operator, built by the planner stage exactly as {@code
 * CommonExecSink.applyConstraintValidations} builds it), then what {@code StreamRecordTimestampInserter} does.
 */
public final class SinkRowHead implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The precision {@code CommonExecSink} gives {@code StreamRecordTimestampInserter(rowtimeFieldIndex)}. */
    private static final int ROWTIME_PRECISION = 3;

    private final SinkRowCalc calc;
    private final ConstraintEnforcerExecutor enforcer;
    private final String enforcerName;
    private final int rowtimeIndex;

    /**
     * @param calc Flink's Calc before the sink, taken in by the planner stage, or null
     * @param enforcer Flink's executor for the sink's constraints, or null when Flink adds no enforcer
     * @param enforcerName the name Flink gives its {@code ConstraintEnforcer} operator, or null without one
     * @param rowtimeIndex the consumed row's rowtime field Flink's sink node writes into the record timestamp, or -1
     */
    public SinkRowHead(SinkRowCalc calc, ConstraintEnforcerExecutor enforcer, String enforcerName,
            int rowtimeIndex) {
        this.calc = calc;
        this.enforcer = enforcer;
        this.enforcerName = enforcerName;
        this.rowtimeIndex = rowtimeIndex;
    }

    /** Opens the Calc's generated function with the encode operator's runtime context. */
    void open(RuntimeContext context) throws Exception {
        if (calc != null) {
            calc.open(context);
        }
    }

    /**
     * The row to encode, or null for a row the Calc's condition or Flink's enforcer drops; throws what the Calc's
     * code throws, and Flink's {@code EnforcerException} where its enforcer fails the job. With a Calc, the row is
     * valid until the next call only ({@link #reusesRows}).
     */
    RowData apply(StreamRecord<RowData> element) throws Exception {
        RowData row = calc == null ? element.getValue() : calc.apply(element.getValue());
        if (row != null && enforcer != null) {
            row = enforcer.enforce(row);
        }
        if (row != null && rowtimeIndex >= 0) {
            // StreamRecordTimestampInserter's step. Nothing after it reads the record timestamp here: the encoder
            // writes a Kafka timestamp only from a `timestamp` metadata column (a sink with metadata columns keeps
            // Flink's node), and the batches it emits carry none. The step stays so that a null rowtime fails the
            // job as it does in Flink's operator.
            element.setTimestamp(row.getTimestamp(rowtimeIndex, ROWTIME_PRECISION).getMillisecond());
        }
        return row;
    }

    void close() throws Exception {
        if (calc != null) {
            calc.close();
        }
    }

    /**
     * True when a row {@link #apply} returns may be refilled by the next call (the Calc's generated code reuses its
     * output row, and a projected string may point into the input row): a row kept past the call must be copied.
     */
    boolean reusesRows() {
        return calc != null;
    }

    /** The type of the rows {@link #apply} returns: the Calc's output where there is one, else {@code input}. */
    TypeInformation<RowData> consumedType(TypeInformation<RowData> input) {
        return calc == null ? input : InternalTypeInfo.of(calc.outputType());
    }

    /** Flink's names of the operators this head stands for, e.g. for the encode operator's name; empty if none. */
    public String describe() {
        return Stream.of(calc == null ? null : calc.describe(), enforcerName,
                        rowtimeIndex < 0 ? null : "StreamRecordTimestampInserter(rowtime field: " + rowtimeIndex + ")")
                .filter(Objects::nonNull).collect(Collectors.joining(", "));
    }

    /** True when the head does nothing: Flink's sink node would add no operator either, and no Calc was taken in. */
    public boolean isEmpty() {
        return calc == null && enforcer == null && rowtimeIndex < 0;
    }
}
