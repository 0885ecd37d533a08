package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.ChildJvm;
import io.columnarkafka.bench.JvmWarmUp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One cell of the CDC benchmark: a query through one variant over the input topic's {@code records}, passed to the
 * cell's JVM ({@link CdcCellRunner}) as {@code key=value} arguments.
 *
 * @param round 0 for the uncounted warm-up round, then 1, 2, ...
 * @param miniBatch whether the cell's table config turns mini-batch on ({@link io.columnarkafka.bench.MiniBatch})
 * @param jvmWarmUp how the cell's JVM first runs the same job, unmeasured, into a topic of its own ({@link
 *     #warmUpRun()}), so that the measured job runs on code the JIT has compiled, as in a long-running TaskManager
 */
record CdcCell(CdcQuery query, CdcVariant variant, int round, long records, int parallelism,
               long checkpointIntervalMs, boolean miniBatch, String bootstrapServers, String inputTopic,
               String outputTopic, String runId, String checkpointDir, String resultFile, JvmWarmUp jvmWarmUp) {

    String label() {
        return query.id() + "-" + variant.id() + (miniBatch ? "-mb" : "");
    }

    /**
     * The unmeasured run before the measured one: the same query, variant, mini-batch mode and input, its own output
     * topic (created and deleted by the harness), transactional ids, consumer group and checkpoint directory ({@link
     * JvmWarmUp#own}), so the measured output check sees none of its records.
     */
    CdcCell warmUpRun() {
        return new CdcCell(query, variant, round, records, parallelism, checkpointIntervalMs, miniBatch,
                bootstrapServers, inputTopic, JvmWarmUp.own(outputTopic), JvmWarmUp.own(runId),
                JvmWarmUp.own(checkpointDir), resultFile, JvmWarmUp.OFF);
    }

    List<String> toArgs() {
        Map<String, String> args = new LinkedHashMap<>();
        args.put("query", query.id());
        args.put("variant", variant.id());
        args.put("round", Integer.toString(round));
        args.put("records", Long.toString(records));
        args.put("parallelism", Integer.toString(parallelism));
        args.put("checkpointIntervalMs", Long.toString(checkpointIntervalMs));
        args.put("miniBatch", Boolean.toString(miniBatch));
        args.put("bootstrapServers", bootstrapServers);
        args.put("inputTopic", inputTopic);
        args.put("outputTopic", outputTopic);
        args.put("runId", runId);
        args.put("checkpointDir", checkpointDir);
        args.put("resultFile", resultFile);
        args.put("jvmWarmUp", jvmWarmUp.name());
        return ChildJvm.keyValueArgs(args);
    }

    static CdcCell fromArgs(String[] argv) {
        Map<String, String> args = ChildJvm.parseKeyValueArgs(argv);
        return new CdcCell(CdcQuery.byId(args.get("query")), CdcVariant.parse(args.get("variant")),
                Integer.parseInt(args.get("round")), Long.parseLong(args.get("records")),
                Integer.parseInt(args.get("parallelism")), Long.parseLong(args.get("checkpointIntervalMs")),
                Boolean.parseBoolean(args.get("miniBatch")), args.get("bootstrapServers"), args.get("inputTopic"),
                args.get("outputTopic"), args.get("runId"), args.get("checkpointDir"), args.get("resultFile"),
                JvmWarmUp.valueOf(args.get("jvmWarmUp")));
    }
}
