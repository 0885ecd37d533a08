package io.columnarkafka.planner.match;

import io.columnarkafka.flink.table.SinkRowCalc;
import io.columnarkafka.flink.table.SinkRowHead;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.runtime.operators.sink.constraint.ConstraintEnforcerExecutor;
import org.apache.flink.table.runtime.typeutils.TypeCheckUtils;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.DataTypeUtils;

/**
 * The per-row steps Flink 2.2.1's stream sink node puts in front of a {@code DataStreamSinkProvider}'s runtime
 * (what {@code StreamExecSink.translateToPlanInternal} and {@code CommonExecSink.createSinkTransformation} add
 * for an insert into a sink without upsert materializer, keyed shuffle or row-kind setter), made the way Flink
 * makes them, from the same schema and options: the constraint enforcer ({@code applyConstraintValidations}:
 * {@link ConstraintEnforcerExecutor#create} over the persisted row type with the three enforcer options) and the
 * rowtime field {@code StreamRecordTimestampInserter} reads ({@code applyRowtimeTransformation}).
 */
public final class FlinkSinkSteps {
    private FlinkSinkSteps() {}

    /**
     * The steps for a sink of {@code schema} consuming rows of {@code inputType}, under {@code config}, after {@code
     * calc} (Flink's Calc producing those rows, taken into the encode operator), or null.
     */
    public static SinkRowHead head(ResolvedSchema schema, RowType inputType, ReadableConfig config, SinkRowCalc calc) {
        Optional<ConstraintEnforcerExecutor> enforcer = enforcer(schema, config);
        int[] rowtimes = rowtimeFields(inputType);
        boolean inserter = config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_ROWTIME_INSERTER)
                == ExecutionConfigOptions.RowtimeInserter.ENABLED;
        if (inserter && rowtimes.length > 1) {
            throw new IllegalArgumentException("more than one rowtime attribute: Flink's sink node rejects the query");
        }
        return new SinkRowHead(calc, enforcer.orElse(null), enforcer.map(FlinkSinkSteps::enforcerName).orElse(null),
                inserter && rowtimes.length == 1 ? rowtimes[0] : -1);
    }

    /** The name of the {@code ConstraintEnforcer} Flink's sink node adds for {@code schema}, or empty for none. */
    static Optional<String> constraints(ResolvedSchema schema, ReadableConfig config) {
        return enforcer(schema, config).map(FlinkSinkSteps::enforcerName);
    }

    /**
     * Flink's constraint enforcer for {@code schema} where all it holds is its NOT NULL constraint (the type-length
     * and nested enforcers add nothing under {@code config}), which a sink can run on Arrow batches; else empty.
     */
    public static Optional<ConstraintEnforcerExecutor> notNullOnly(ResolvedSchema schema, ReadableConfig config) {
        Optional<ConstraintEnforcerExecutor> full = enforcer(schema, config);
        Optional<ConstraintEnforcerExecutor> notNull = ConstraintEnforcerExecutor.create(persistedRowType(schema),
                config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_NOT_NULL_ENFORCER),
                ExecutionConfigOptions.TypeLengthEnforcer.IGNORE, ExecutionConfigOptions.NestedEnforcer.IGNORE);
        return full.isPresent() && notNull.isPresent()
                && enforcerName(full.get()).equals(enforcerName(notNull.get())) ? full : Optional.empty();
    }

    private static Optional<ConstraintEnforcerExecutor> enforcer(ResolvedSchema schema, ReadableConfig config) {
        return ConstraintEnforcerExecutor.create(persistedRowType(schema),
                config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_NOT_NULL_ENFORCER),
                config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_TYPE_LENGTH_ENFORCER),
                config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_NESTED_CONSTRAINT_ENFORCER));
    }

    /** The input's rowtime attribute fields, as {@code StreamExecSink} finds them. */
    static int[] rowtimeFields(RowType inputType) {
        return IntStream.range(0, inputType.getFieldCount())
                .filter(i -> TypeCheckUtils.isRowTime(inputType.getTypeAt(i))).toArray();
    }

    /** The name {@code CommonExecSink} gives its {@code ConstraintEnforcer} operator. */
    public static String enforcerName(ConstraintEnforcerExecutor executor) {
        return "ConstraintEnforcer[" + Arrays.stream(executor.getConstraints()).map(Objects::toString)
                .collect(Collectors.joining(", ")) + "]";
    }

    /**
     * The type of the rows the sink consumes, as {@code StreamExecSink.getPersistedRowType} (protected) recreates it
     * from the sink's schema: the persisted physical columns, then the persisted metadata columns, time attributes
     * removed, the row not null.
     */
    private static RowType persistedRowType(ResolvedSchema schema) {
        List<Column> physical = new ArrayList<>();
        List<Column> metadata = new ArrayList<>();
        for (Column column : schema.getColumns()) {
            if (column.isPersisted()) {
                (column.isPhysical() ? physical : metadata).add(column);
            }
        }
        return (RowType) Stream.concat(physical.stream(), metadata.stream())
                .map(c -> DataTypes.FIELD(c.getName(), DataTypeUtils.removeTimeAttribute(c.getDataType())))
                .collect(Collectors.collectingAndThen(Collectors.toList(), DataTypes::ROW))
                .notNull()
                .getLogicalType();
    }
}
