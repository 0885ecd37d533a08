package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.bench.JvmWarmUp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --variants}: the forms a variant takes, its planner options validated against the planner's own
 * ConfigOptions (an unknown key or a value the option does not take fails, naming what is known), its JVM properties
 * ({@code columnarkafka.*} only) and the cell JVM's command line they go on, and the checks on the list.
 */
class VariantTest {
    private static final String WARM_UP_OFF = "-Dcolumnarkafka.arrow.warm-up=false";
    @Test
    void anExtraVariantSetsItsPlannerOptionsUnderTheirFullKeys() {
        Variant variant = Variant.parse("columnar:local-window-agg.vectorised=false+edge-rows=VIEWS");

        assertThat(variant.columnar()).isTrue();
        assertThat(variant.extra()).isTrue();
        assertThat(variant.id()).as("options sorted by key")
                .isEqualTo("columnar:edge-rows=VIEWS+local-window-agg.vectorised=false");
        assertThat(variant.sessionOptions()).containsExactly(
                Map.entry("columnar-kafka.planner.edge-rows", "VIEWS"),
                Map.entry("columnar-kafka.planner.local-window-agg.vectorised", "false"));
        assertThat(Variant.parse(variant.id())).isEqualTo(variant);
        assertThat(variant.sink(NexmarkQuery.Q0)).isEqualTo("kafka-columnar");
        assertThat(Variant.parse("stock")).isSameAs(Variant.STOCK);
        assertThat(Variant.parse("columnar")).isSameAs(Variant.COLUMNAR);
        assertThat(Variant.COLUMNAR.extra()).isFalse();
    }

    @Test
    void aVariantRoundTripsThroughTheCellsArguments() {
        Variant variant = Variant.parse("columnar:edge-rows=VIEWS");
        CellSpec spec = new CellSpec(NexmarkQuery.Q4, variant, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "b:9092", "in", "out",
                "run", 0, 0, true, ClientSettings.DEFAULTS, "/tmp/c", "/tmp/r", JvmWarmUp.ONCE);

        assertThat(CellSpec.fromArgs(spec.toArgs().toArray(String[]::new))).isEqualTo(spec);
        assertThat(spec.label()).isEqualTo("q4-c:edge-rows=VIEWS");
    }

    @Test
    void unknownKeysAndValuesFailNamingWhatIsKnown() {
        assertThatThrownBy(() -> Variant.parse("columnar:edge-row=VIEWS"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown planner option 'edge-row' (known, relative to columnar-kafka.planner.:"
                        + " edge-rows, local-window-agg.vectorised, local-group-agg.vectorised, watermark.columnar,"
                        + " calc.split, calc.flink-code, sink.row-head, sink.row-calc)");
        assertThatThrownBy(() -> Variant.parse("columnar:edge-rows=SIDEWAYS"))
                .hasMessageStartingWith("planner option edge-rows does not take 'SIDEWAYS'");
        assertThatThrownBy(() -> Variant.parse("columnar:local-window-agg.vectorised=maybe"))
                .hasMessageStartingWith("planner option local-window-agg.vectorised does not take 'maybe'");
        assertThatThrownBy(() -> Variant.parse("columnar:enabled=false"))
                .as("an option of the stage that is no path choice").hasMessageStartingWith("unknown planner option");
        assertThatThrownBy(() -> Variant.parse("columnar:edge-rows")).hasMessageContaining("is not KEY=VALUE");
        assertThatThrownBy(() -> Variant.parse("columnar:"))
                .hasMessageContaining("is not stock, columnar, columnar#2 (the A/A control) or");
        assertThatThrownBy(() -> Variant.parse("stock:edge-rows=VIEWS")).hasMessageContaining("is not stock, columnar");
        assertThatThrownBy(() -> Variant.parse("columnar:edge-rows=VIEWS+edge-rows=BINARY"))
                .hasMessageContaining("sets edge-rows twice");
    }

    @Test
    void aVariantsResultTableOptionsGoToItsSinkTableOnly() {
        Variant off = Variant.parse("columnar:columnar.sink.max-queue-delay=0+edge-rows=VIEWS");
        assertThat(off.extra()).isTrue();
        assertThat(off.sinkOptions()).containsExactly(Map.entry("columnar.sink.max-queue-delay", "0"));
        assertThat(off.sessionOptions()).containsExactly(Map.entry("columnar-kafka.planner.edge-rows", "VIEWS"));
        assertThat(off.jvmOptions()).isEmpty();
        assertThat(off.id()).isEqualTo("columnar:edge-rows=VIEWS+columnar.sink.max-queue-delay=0");
        assertThat(Variant.parse(off.id())).isEqualTo(off);
        assertThat(NexmarkSql.sinkOptions(off.sink(NexmarkQuery.Q0), false, "b:9092", "out", "tx",
                ClientSettings.DEFAULTS, off.sinkOptions())).contains("'columnar.sink.max-queue-delay' = '0'");
        assertThat(Variant.COLUMNAR.sinkOptions()).isEmpty();
        assertThat(VariantReport.inPlan(Variant.parse("columnar:columnar.sink.max-queue-delay=0"), List.of()))
                .isEqualTo("result table columnar.sink.max-queue-delay=0 (no plan option)");
        assertThat(Variant.parse("columnar:columnar.max-latency=20ms").sinkOptions())
                .containsExactly(Map.entry("columnar.max-latency", "20ms"));
        assertThatThrownBy(
                () -> Variant.parse("columnar:columnar.sink.max-queue-delay=0+columnar.sink.max-queue-delay=1"))
                .hasMessageContaining("sets columnar.sink.max-queue-delay twice");
    }

    @Test
    void aVariantsJvmPropertiesAreNoSessionOptionAndComeAfterItsPlannerOptionsInItsId() {
        Variant warmUpOff = Variant.parse("columnar:" + WARM_UP_OFF);

        assertThat(warmUpOff.columnar()).isTrue();
        assertThat(warmUpOff.extra()).isTrue();
        assertThat(warmUpOff.control()).isFalse();
        assertThat(warmUpOff.plannerOptions()).isEmpty();
        assertThat(warmUpOff.sessionOptions()).isEmpty();
        assertThat(warmUpOff.jvmProperties()).containsExactly(Map.entry("columnarkafka.arrow.warm-up", "false"));
        assertThat(warmUpOff.jvmOptions()).containsExactly(WARM_UP_OFF);
        assertThat(warmUpOff.id()).isEqualTo("columnar:" + WARM_UP_OFF);
        assertThat(warmUpOff.letter()).isEqualTo("c:" + WARM_UP_OFF);
        assertThat(Variant.parse(warmUpOff.id())).isEqualTo(warmUpOff).isNotEqualTo(Variant.COLUMNAR)
                .isNotEqualTo(Variant.CONTROL);
        assertThat(warmUpOff.source()).isEqualTo(Variant.COLUMNAR.source());
        assertThat(warmUpOff.sink(NexmarkQuery.Q5)).isEqualTo(Variant.COLUMNAR.sink(NexmarkQuery.Q5));

        Variant mixed = Variant.parse("columnar:-Dcolumnarkafka.z=1+" + WARM_UP_OFF + "+edge-rows=VIEWS");
        assertThat(mixed.id()).as("planner options, then JVM properties, each sorted by key")
                .isEqualTo("columnar:edge-rows=VIEWS+" + WARM_UP_OFF + "+-Dcolumnarkafka.z=1");
        assertThat(Variant.parse(mixed.id())).isEqualTo(mixed);
        assertThat(mixed.sessionOptions()).containsExactly(Map.entry("columnar-kafka.planner.edge-rows", "VIEWS"));
        assertThat(mixed.jvmOptions()).containsExactly(WARM_UP_OFF, "-Dcolumnarkafka.z=1");
        assertThat(Variant.parse("columnar:-Dcolumnarkafka.x=a=b").jvmProperties())
                .as("the value is everything after the first =").containsExactly(Map.entry("columnarkafka.x", "a=b"));
        assertThat(Variant.STOCK.jvmOptions()).isEmpty();
        assertThat(Variant.CONTROL.jvmOptions()).isEmpty();

        CellSpec spec = new CellSpec(NexmarkQuery.Q5, mixed, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "b:9092", "in", "out",
                "run", 0.5, 0, true, ClientSettings.DEFAULTS, "/tmp/c", "/tmp/r", JvmWarmUp.OFF);
        assertThat(CellSpec.fromArgs(spec.toArgs().toArray(String[]::new))).isEqualTo(spec);
        assertThat(spec.label()).isEqualTo("q5-c:edge-rows=VIEWS+" + WARM_UP_OFF + "+-Dcolumnarkafka.z=1-fail");
    }

    @Test
    void malformedJvmPropertiesFailNamingTheItem() {
        assertThatThrownBy(() -> Variant.parse("columnar:-Dfile.encoding=UTF-8"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("variant 'columnar:-Dfile.encoding=UTF-8': JVM property 'file.encoding' is not a"
                        + " columnarkafka.* key (a variant varies columnar-kafka's own switches; JVM-wide options go to"
                        + " every cell alike: CHILD_JAVA_OPTS, TASKMANAGER_JAVA_OPTS)");
        assertThatThrownBy(() -> Variant.parse("columnar:-Dcolumnarkafka.=x"))
                .hasMessageContaining("JVM property 'columnarkafka.' is not a columnarkafka.* key");
        assertThatThrownBy(() -> Variant.parse("columnar:-Dcolumnarkafka.arrow.warm-up"))
                .hasMessage("variant 'columnar:-Dcolumnarkafka.arrow.warm-up': '-Dcolumnarkafka.arrow.warm-up'"
                        + " is not -DKEY=VALUE");
        assertThatThrownBy(() -> Variant.parse("columnar:-Dcolumnarkafka.arrow.warm-up="))
                .hasMessageContaining("is not -DKEY=VALUE");
        assertThatThrownBy(() -> Variant.parse("columnar:-D=false")).hasMessageContaining("is not -DKEY=VALUE");
        assertThatThrownBy(() -> Variant.parse("columnar:-D")).hasMessageContaining("is not -DKEY=VALUE");
        assertThatThrownBy(() -> Variant.parse("columnar:-Dcolumnarkafka.a=x y"))
                .hasMessageContaining("JVM property columnarkafka.a has a value with whitespace or quotes: 'x y'");
        assertThatThrownBy(() -> Variant.parse("columnar:-Dcolumnarkafka.a='x'"))
                .hasMessageContaining("has a value with whitespace or quotes");
        assertThatThrownBy(() -> Variant.parse("columnar:-Dcolumnarkafka.a=1+-Dcolumnarkafka.a=2"))
                .hasMessageContaining("sets -Dcolumnarkafka.a twice");
        assertThatThrownBy(() -> Variant.parse("columnar:" + WARM_UP_OFF + "+"))
                .as("an empty item").hasMessageContaining("'' is not KEY=VALUE");
        assertThatThrownBy(() -> Variant.parse("stock:" + WARM_UP_OFF)).hasMessageContaining("is not stock, columnar");
        assertThatThrownBy(() -> Variant.parse("columnar:columnarkafka.arrow.warm-up=false"))
                .as("without -D it is a planner option").hasMessageStartingWith("unknown planner option");
    }

    /**
     * A plain cell's tasks run in the cell JVM: the variant's properties go on its command line after {@code
     * CHILD_JAVA_OPTS} (so they hold whatever that sets), before the main class; other variants get none. A recovery
     * cell's JVM gets them the same way and passes them on to its cluster ({@code RecoveryCellTest}).
     */
    @Test
    void theCellJvmGetsTheVariantsPropertiesAfterChildJavaOpts() {
        Variant warmUpOff = Variant.parse("columnar:" + WARM_UP_OFF);
        CellSpec spec = new CellSpec(NexmarkQuery.Q5, warmUpOff, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "b:9092", "in", "out",
                "run", 0, 0, true, ClientSettings.DEFAULTS, "/tmp/c", "/tmp/r", JvmWarmUp.OFF);

        List<String> command = ChildJvm.command(CellRunner.class, "cells.jar", spec.toArgs(),
                NexmarkBenchmark.cellJavaOptions("-Xmx2g -Dcolumnarkafka.arrow.warm-up=true", warmUpOff));

        assertThat(command).containsSubsequence("-Xmx2g", "-Dcolumnarkafka.arrow.warm-up=true", WARM_UP_OFF, "-cp",
                "cells.jar", CellRunner.class.getName(), "variant=columnar:" + WARM_UP_OFF);
        assertThat(NexmarkBenchmark.cellJavaOptions(null, warmUpOff))
                .isEqualTo(NexmarkBenchmark.DEFAULT_CHILD_JAVA_OPTS + " " + WARM_UP_OFF);
        for (Variant other : List.of(Variant.STOCK, Variant.COLUMNAR, Variant.CONTROL,
                Variant.parse("columnar:edge-rows=VIEWS"))) {
            assertThat(NexmarkBenchmark.cellJavaOptions(null, other)).as(other.id())
                    .isEqualTo(NexmarkBenchmark.DEFAULT_CHILD_JAVA_OPTS);
        }
    }

    @Test
    void theListNeedsStockAndColumnarOnceEachAndRunsStockFirst() {
        assertThat(NexmarkBenchmark.variants("stock,columnar")).containsExactly(Variant.STOCK, Variant.COLUMNAR);
        assertThat(NexmarkBenchmark.variants("columnar:edge-rows=VIEWS, columnar,stock"))
                .extracting(Variant::id).containsExactly("stock", "columnar", "columnar:edge-rows=VIEWS");
        assertThatThrownBy(() -> NexmarkBenchmark.variants("stock,columnar:edge-rows=VIEWS"))
                .hasMessageStartingWith("--variants needs stock and columnar");
        assertThatThrownBy(() -> NexmarkBenchmark.variants("columnar,columnar:edge-rows=VIEWS"))
                .hasMessageStartingWith("--variants needs stock and columnar");
        assertThatThrownBy(() -> NexmarkBenchmark.variants("stock,columnar,stock"))
                .hasMessageStartingWith("--variants names a variant twice");
    }

    @Test
    void plannerOptionsNeedThePlannerStageAndEveryModeTakesExtraVariants() {
        assertThatThrownBy(() -> NexmarkBenchmark.parse(new String[] {"--columnar-planner", "off",
            "--variants", "stock,columnar,columnar:edge-rows=VIEWS"}))
                .hasMessage("--variants with planner options needs --columnar-planner on");
        NexmarkBenchmark.parse(new String[] {"--columnar-planner", "off", "--variants", "stock,columnar,columnar#2"});
        NexmarkBenchmark.parse(new String[] {"--columnar-planner", "off", "--variants",
            "stock,columnar,columnar:" + WARM_UP_OFF});
        NexmarkBenchmark.parse(new String[] {"--rate", "1000", "--seconds", "2",
            "--variants", "stock,columnar,columnar:edge-rows=VIEWS,columnar#2"});
    }

    /**
     * The A/A control: the default columnar configuration (the same connectors, no session option) under a label of
     * its own, so its cells are an extra variant's, kept out of the stock/columnar pair, and sorted before the
     * variants with options.
     */
    @Test
    void theAaControlIsTheDefaultColumnarVariantUnderItsOwnLabel() {
        Variant control = Variant.parse("columnar#2");

        assertThat(control).isSameAs(Variant.CONTROL).isNotEqualTo(Variant.COLUMNAR);
        assertThat(control.control()).isTrue();
        assertThat(control.extra()).isTrue();
        assertThat(control.columnar()).isTrue();
        assertThat(control.sessionOptions()).as("the default configuration").isEmpty();
        assertThat(control.sink(NexmarkQuery.Q4)).isEqualTo(Variant.COLUMNAR.sink(NexmarkQuery.Q4));
        assertThat(control.source()).isEqualTo(Variant.COLUMNAR.source());
        assertThat(control.id()).isEqualTo("columnar#2");
        assertThat(control.letter()).isEqualTo("c#2");
        assertThat(NexmarkBenchmark.variants("columnar:edge-rows=VIEWS,columnar#2,stock,columnar"))
                .containsExactly(Variant.STOCK, Variant.COLUMNAR, control, Variant.parse("columnar:edge-rows=VIEWS"));
        assertThat(NexmarkBenchmark.variants("columnar:" + WARM_UP_OFF + ",columnar#2,stock,columnar"))
                .as("a variant of JVM properties is an extra one like a planner option's")
                .extracting(Variant::id).containsExactly("stock", "columnar", "columnar#2", "columnar:" + WARM_UP_OFF);
        assertThatThrownBy(() -> NexmarkBenchmark.variants("stock,columnar," + "columnar:" + WARM_UP_OFF + ","
                + "columnar:" + WARM_UP_OFF)).hasMessageStartingWith("--variants names a variant twice");
        CellSpec spec = new CellSpec(NexmarkQuery.Q4, control, false, false, FlinkOptions.NONE, CellStateBackend.HEAP, 1000, 2, 1000, "b:9092", "in", "out",
                "run", 0, 0, true, ClientSettings.DEFAULTS, "/tmp/c", "/tmp/r", JvmWarmUp.OFF);
        assertThat(CellSpec.fromArgs(spec.toArgs().toArray(String[]::new)).variant()).isSameAs(Variant.CONTROL);
        assertThatThrownBy(() -> Variant.parse("columnar#3")).hasMessageContaining("is not stock, columnar, columnar#2");
    }
}
