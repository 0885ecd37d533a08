package io.columnarkafka.bench.nexmark;

import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.bench.JvmWarmUp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One cell of the matrix: a query, run through one {@link Variant}'s connectors with mini-batch off or on,
 * over the input topic's {@code events}; passed to the cell's JVM as {@code key=value} arguments.
 *
 * @param splitDistinct whether the cell's table config splits distinct aggregates ({@link SplitDistinct})
 * @param flinkOptions Flink configuration options of the cell's cluster, the same for every variant ({@link
 *     FlinkOptions})
 * @param state the cell's state backend, the same for every variant ({@link CellStateBackend})
 * @param failAtFraction 0 for a plain run; otherwise the share of the input committed by a checkpoint after
 *     which the TaskManager process running the job is killed (a recovery run, {@link RecoveryCell})
 * @param rate 0 for a bounded run over a filled topic; otherwise the events per second at which the harness fills
 *     the topic while the job runs unbounded, ended by stop-with-savepoint with drain ({@link FixedRateRun})
 * @param clients the Kafka client settings of the source and result tables (both variants)
 * @param jvmWarmUp how the cell's JVM first runs the same job, unmeasured, into a topic of its own ({@link
 *     #warmUpRun()}), so that the measured job runs on code the JIT has compiled, as in a long-running TaskManager
 */
record CellSpec(
        NexmarkQuery query,
        Variant variant,
        boolean miniBatch,
        boolean splitDistinct,
        FlinkOptions flinkOptions,
        CellStateBackend state,
        long events,
        int parallelism,
        long checkpointIntervalMs,
        String bootstrapServers,
        String inputTopic,
        String outputTopic,
        String runId,
        double failAtFraction,
        double rate,
        boolean columnarPlanner,
        ClientSettings clients,
        String checkpointDir,
        String resultFile,
        JvmWarmUp jvmWarmUp) {

    /**
     * The unmeasured run before the measured one: the same query, variant and input, its own output topic (created
     * and deleted by the harness), transactional ids, consumer group and checkpoint directory ({@link JvmWarmUp#own}).
     */
    CellSpec warmUpRun() {
        return new CellSpec(query, variant, miniBatch, splitDistinct, flinkOptions, state, events, parallelism,
                checkpointIntervalMs, bootstrapServers, inputTopic, JvmWarmUp.own(outputTopic), JvmWarmUp.own(runId),
                failAtFraction, rate, columnarPlanner, clients, JvmWarmUp.own(checkpointDir), resultFile,
                JvmWarmUp.OFF);
    }

    String label() {
        return query.id() + "-" + variant.letter() + (miniBatch ? "-mb" : "") + (failAtFraction > 0 ? "-fail" : "")
                + (fixedRate() ? "-rate" : "");
    }

    boolean fixedRate() {
        return rate > 0;
    }

    List<String> toArgs() {
        Map<String, String> args = new LinkedHashMap<>();
        args.put("query", query.id());
        args.put("variant", variant.id());
        args.put("miniBatch", Boolean.toString(miniBatch));
        args.put("splitDistinct", Boolean.toString(splitDistinct));
        args.put("flinkOptions", flinkOptions.toArg());
        args.put("state", state.name());
        args.put("events", Long.toString(events));
        args.put("parallelism", Integer.toString(parallelism));
        args.put("checkpointIntervalMs", Long.toString(checkpointIntervalMs));
        args.put("bootstrapServers", bootstrapServers);
        args.put("inputTopic", inputTopic);
        args.put("outputTopic", outputTopic);
        args.put("runId", runId);
        args.put("failAtFraction", Double.toString(failAtFraction));
        args.put("rate", Double.toString(rate));
        args.put("columnarPlanner", Boolean.toString(columnarPlanner));
        args.put("maxPollRecords", Integer.toString(clients.maxPollRecords()));
        args.put("producerBatchSize", Integer.toString(clients.producerBatchSize()));
        args.put("producerLingerMs", Integer.toString(clients.producerLingerMs()));
        args.put("producerBufferMemory", Long.toString(clients.producerBufferMemory()));
        args.put("scanBatchRows", Integer.toString(clients.scanBatchRows()));
        args.put("scanBatchTimeMs", Integer.toString(clients.scanBatchTimeMs()));
        args.put("checkpointDir", checkpointDir);
        args.put("resultFile", resultFile);
        args.put("jvmWarmUp", jvmWarmUp.name());
        return ChildJvm.keyValueArgs(args);
    }

    static CellSpec fromArgs(String[] argv) {
        Map<String, String> args = ChildJvm.parseKeyValueArgs(argv);
        return new CellSpec(
                NexmarkQuery.byId(args.get("query")),
                Variant.parse(args.get("variant")),
                Boolean.parseBoolean(args.get("miniBatch")),
                Boolean.parseBoolean(args.get("splitDistinct")),
                FlinkOptions.fromArg(args.get("flinkOptions")),
                CellStateBackend.valueOf(args.get("state")),
                Long.parseLong(args.get("events")),
                Integer.parseInt(args.get("parallelism")),
                Long.parseLong(args.get("checkpointIntervalMs")),
                args.get("bootstrapServers"),
                args.get("inputTopic"),
                args.get("outputTopic"),
                args.get("runId"),
                Double.parseDouble(args.get("failAtFraction")),
                Double.parseDouble(args.get("rate")),
                Boolean.parseBoolean(args.get("columnarPlanner")),
                new ClientSettings(Integer.parseInt(args.get("maxPollRecords")),
                        Integer.parseInt(args.get("producerBatchSize")), Integer.parseInt(args.get("producerLingerMs")),
                        Long.parseLong(args.get("producerBufferMemory")), Integer.parseInt(args.get("scanBatchRows")),
                        Integer.parseInt(args.get("scanBatchTimeMs"))),
                args.get("checkpointDir"),
                args.get("resultFile"),
                JvmWarmUp.valueOf(args.get("jvmWarmUp")));
    }
}
