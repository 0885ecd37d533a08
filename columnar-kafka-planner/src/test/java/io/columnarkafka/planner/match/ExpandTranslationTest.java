package io.columnarkafka.planner.match;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.flink.expand.ExpandSpec;
import io.columnarkafka.planner.ColumnarSql;
import io.columnarkafka.planner.InstallStatus;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.planner.plan.nodes.physical.stream.StreamPhysicalExpand;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which Expand projections the columnar expand copies: the ones Flink's split distinct rewrite builds (input fields,
 * typed NULLs, the BIGINT expand id) are admitted; another literal, or a column mixing input values and constants, is
 * refused with the reason EXPLAIN shows ({@code EXPAND_NOT_TRANSLATED ...}). The refused Expands are
 * Flink's planned one with one projection value replaced, as no SQL makes Flink's planner build them.
 */
class ExpandTranslationTest {
    private static StreamPhysicalExpand planned;

    @BeforeAll
    static void planAnExpand() {
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        assertThat(ColumnarSql.install(tEnv).status()).isEqualTo(InstallStatus.INSTALLED);
        tEnv.getConfig().set("table.optimizer.distinct-agg.split.enabled", "true");
        tEnv.executeSql("CREATE TABLE events (k BIGINT, i INT, s STRING) WITH ('connector' = 'kafka-columnar',"
                + " 'topic' = 'events', 'properties.bootstrap.servers' = 'localhost:1', 'properties.group.id' = 'g',"
                + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')");
        tEnv.executeSql("CREATE TABLE results (s STRING, d BIGINT, e BIGINT) WITH ('connector' = 'blackhole')");
        ColumnarSql.explain(tEnv, "INSERT INTO results SELECT s, COUNT(DISTINCT k), COUNT(DISTINCT i) FROM events"
                + " GROUP BY s");
        planned = (StreamPhysicalExpand) ColumnarSql.lastDecision(tEnv).decisions().stream()
                .filter(d -> d.node() instanceof StreamPhysicalExpand).findFirst().orElseThrow().node();
    }

    @Test
    void flinksSplitDistinctExpandIsAdmitted() throws Exception {
        ExpandSpec spec = ExpandTranslation.of(planned);
        assertThat(spec.projections()).hasSize(planned.projects().size());
        assertThat(spec.projections().get(0).get(planned.expandIdIndex())).isInstanceOf(ExpandSpec.Constant.class);
    }

    /** Flink's Expand holds input fields and literals only ({@code Expand.isValid}): a literal of another type. */
    @Test
    void aLiteralOtherThanNullOrAnIntegerIsRefused() {
        RexBuilder rex = planned.getCluster().getRexBuilder();
        StreamPhysicalExpand withDouble = replacingExpandId(rex.makeApproxLiteral(BigDecimal.valueOf(1.5)));
        assertThatThrownBy(() -> ExpandTranslation.of(withDouble)).isInstanceOf(NotTranslatable.class)
                .hasMessageContaining("$e: 1.5E0:DOUBLE (only input fields, NULL, and INT or BIGINT literals)");
    }

    @Test
    void aColumnOfInputValuesAndConstantsIsRefused() {
        RexBuilder rex = planned.getCluster().getRexBuilder();
        StreamPhysicalExpand mixed = replacingFirstInputRef(ref -> rex.makeBigintLiteral(BigDecimal.ONE));
        assertThatThrownBy(() -> ExpandTranslation.of(mixed)).isInstanceOf(NotTranslatable.class)
                .hasMessageContaining("constants beside input values");
    }

    /** The planned Expand with the first input field of its first projection that is a BIGINT field replaced. */
    private static StreamPhysicalExpand replacingFirstInputRef(UnaryOperator<RexNode> replace) {
        List<List<RexNode>> projects = copy();
        List<RexNode> first = projects.get(0);
        for (int c = 0; c < first.size(); c++) {
            if (first.get(c) instanceof RexInputRef ref && ref.getType().getSqlTypeName().getName().equals("BIGINT")) {
                first.set(c, replace.apply(ref));
                return expand(projects);
            }
        }
        throw new AssertionError("no BIGINT input field in " + first);
    }

    private static StreamPhysicalExpand replacingExpandId(RexLiteral literal) {
        List<List<RexNode>> projects = copy();
        projects.get(0).set(planned.expandIdIndex(), literal);
        return expand(projects);
    }

    private static List<List<RexNode>> copy() {
        List<List<RexNode>> projects = new ArrayList<>();
        for (List<RexNode> projection : planned.projects()) {
            projects.add(new ArrayList<>(projection));
        }
        return projects;
    }

    private static StreamPhysicalExpand expand(List<List<RexNode>> projects) {
        return new StreamPhysicalExpand(planned.getCluster(), planned.getTraitSet(), planned.getInput(), projects,
                planned.expandIdIndex());
    }
}
