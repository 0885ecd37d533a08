package io.columnarkafka.planner;

import io.columnarkafka.flink.table.EdgeRows;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * The session options that choose between two exact columnar paths of the planner stage, both giving Flink's
 * result: what an A/B run may set per variant (the Nexmark matrix's {@code --variants}). Kept apart from the
 * planner's classes so a process without Flink's planner jar (the benchmark's driver) can validate them.
 */
public final class PlannerOptions {
    /** The prefix every planner stage option's key starts with. */
    public static final String PREFIX = "columnar-kafka.planner.";

    /**
     * Whether a local window aggregate the vectorised operator admits runs on it ({@code true}, the default) or on
     * Flink's operator over row views.
     */
    public static final ConfigOption<Boolean> VECTORISED_LOCAL_WINDOW_AGG =
            ConfigOptions.key(PREFIX + "local-window-agg.vectorised").booleanType().defaultValue(true)
                    .withDescription("Compute admitted local window aggregates on the Arrow vectors.");

    /**
     * Whether a local group aggregate (mini-batch's first phase) the vectorised operator admits runs on it ({@code
     * true}, the default) or on Flink's operator behind an Arrow-to-rows edge.
     */
    public static final ConfigOption<Boolean> VECTORISED_LOCAL_GROUP_AGG =
            ConfigOptions.key(PREFIX + "local-group-agg.vectorised").booleanType().defaultValue(true)
                    .withDescription("Compute admitted local group aggregates (mini-batch) on the Arrow vectors.");

    /**
     * Whether a columnar scan evaluates its pushed watermark expression as one column per batch where the calc's
     * compiler admits it ({@code true}, the default), or finds each batch's watermark row with Flink's generator run
     * on every row (the row probe).
     */
    public static final ConfigOption<Boolean> COLUMNAR_WATERMARK =
            ConfigOptions.key(PREFIX + "watermark.columnar").booleanType().defaultValue(true)
                    .withDescription("Evaluate an admitted scan watermark as one column per Arrow batch.");

    /**
     * Whether a columnar-fed Calc the columnar calc cannot run whole only because of some projections is split
     * ({@code true}, the default): its condition and the projections it admits columnar, the rest in Flink's Calc
     * after the edge ({@code CalcSplit}); or left to Flink's Calc whole, behind the edge, as before the split.
     */
    public static final ConfigOption<Boolean> SPLIT_CALC =
            ConfigOptions.key(PREFIX + "calc.split").booleanType().defaultValue(true)
                    .withDescription("Split a Calc whose condition runs columnar but some projections do not: the"
                            + " filter and the admitted projections columnar, the rest in Flink's Calc after the edge.");

    /**
     * Whether the columnar calc evaluates the calls of user-defined scalar functions it admits ({@code
     * FlinkCodeCalls}) itself, by running Flink's own generated code for each call row by row over the rows Flink's
     * Calc calls it for ({@code true}, the default), or leaves them to Flink's Calc after an edge (the split, or the
     * whole Calc Flink's).
     */
    public static final ConfigOption<Boolean> FLINK_CODE_CALC =
            ConfigOptions.key(PREFIX + "calc.flink-code").booleanType().defaultValue(true)
                    .withDescription("Run user-defined scalar function calls (in a projection or the condition) in the"
                            + " columnar calc, with Flink's generated code for each call over the rows Flink's Calc"
                            + " calls it for, instead of in Flink's Calc after an Arrow-to-rows edge.");

    /**
     * Whether a {@code kafka-columnar} / {@code upsert-kafka-columnar} sink fed rows replaces Flink's sink node
     * ({@code true}, the default) with one whose encode operator runs Flink's constraint enforcer and rowtime step on
     * each row it is handed ({@code ColumnarRowSink}), so no chained hop, and with object reuse off no copy of the
     * row, lies between them; or keeps Flink's node, which runs them as operators of their own.
     */
    public static final ConfigOption<Boolean> ROW_SINK_HEAD =
            ConfigOptions.key(PREFIX + "sink.row-head").booleanType().defaultValue(true)
                    .withDescription("Run Flink's sink constraint enforcer and rowtime step inside the encode"
                            + " operator of a kafka-columnar sink fed rows, instead of as operators of Flink's sink"
                            + " node chained before it.");

    /**
     * Whether the row sink ({@link #ROW_SINK_HEAD}) also takes in Flink's Calc over rows that is its only input and
     * read by nothing else ({@code true}, the default): its encode operator runs Flink's generated code for the Calc
     * before the sink's steps, so the row crosses no hop between them; or leaves the Calc as Flink's operator.
     */
    public static final ConfigOption<Boolean> ROW_SINK_CALC =
            ConfigOptions.key(PREFIX + "sink.row-calc").booleanType().defaultValue(true)
                    .withDescription("Run Flink's Calc over rows in front of a kafka-columnar sink fed rows (Flink's"
                            + " generated code for it) inside the sink's encode operator, instead of as an operator"
                            + " chained before it.");

    /** Every path choice, by key. */
    public static final List<ConfigOption<?>> PATH_CHOICES =
            List.of(EdgeRows.OPTION, VECTORISED_LOCAL_WINDOW_AGG, VECTORISED_LOCAL_GROUP_AGG, COLUMNAR_WATERMARK,
                    SPLIT_CALC, FLINK_CODE_CALC, ROW_SINK_HEAD, ROW_SINK_CALC);

    private PlannerOptions() {}

    /**
     * The path choice {@code relativeKey} (its key without {@link #PREFIX}) names, checked to take {@code value};
     * throws {@link IllegalArgumentException} naming the known keys, or the value's fault.
     */
    public static ConfigOption<?> pathChoice(String relativeKey, String value) {
        Optional<ConfigOption<?>> option = PATH_CHOICES.stream()
                .filter(o -> o.key().equals(PREFIX + relativeKey)).findFirst();
        if (option.isEmpty()) {
            throw new IllegalArgumentException("unknown planner option '" + relativeKey + "' (known, relative to "
                    + PREFIX + ": " + String.join(", ", PATH_CHOICES.stream()
                            .map(o -> o.key().substring(PREFIX.length())).toList()) + ")");
        }
        try {
            Configuration.fromMap(Map.of(option.get().key(), value)).get(option.get());
        } catch (IllegalArgumentException badValue) {
            throw new IllegalArgumentException("planner option " + relativeKey + " does not take '" + value + "': "
                    + badValue.getMessage(), badValue);
        }
        return option.get();
    }
}
