package io.columnarkafka.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.columnarkafka.flink.batch.ArrowMemory;
import io.columnarkafka.flink.faults.FaultJobs.SinkUnderTest;
import io.columnarkafka.flink.testing.TestRows;
import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.OutputTimeline;
import io.columnarkafka.testkit.TopicReport;
import io.columnarkafka.testkit.TopicVerifier;
import io.columnarkafka.testkit.flink.FlinkCluster;
import io.columnarkafka.testkit.flink.FlinkProcess;
import io.columnarkafka.testkit.soak.HeapAfterGc;
import io.columnarkafka.testkit.soak.HeapSample;
import io.columnarkafka.testkit.soak.SoakFault;
import io.columnarkafka.testkit.soak.SoakReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The soak of issue #13 (not CI: tag {@code soak}, run by {@code bin/soak}). The fault tests' columnar job
 * (EXACTLY_ONCE, {@code POOLING}, 1 s checkpoints, a sink of parallelism 2) runs at a fixed rate on a standalone
 * Flink cluster of separate JVMs (a job manager, two task managers) against one broker, for {@code soak.minutes}
 * (default 20). Every {@code soak.fault-seconds} (default 120) a fault hits it, alternately a task manager running
 * part of the job killed with SIGKILL while a checkpoint is in flight (then started again) and the broker stopped
 * for 20 s and started again. Every 20 s each task manager runs a full GC ({@code jcmd GC.run}) and its heap in use
 * is read ({@code jstat -gc}). At the end: every row once {@code read_committed}, no open transaction, and the Arrow
 * memory of each task manager, which a probe job reads inside each task manager JVM ({@link ArrowMemory} is
 * JVM-wide: the cluster runs this module's classpath, and the jobs bring no jar), must be 0; the heap samples must
 * show no growth trend. The report (Markdown, CSVs, SVG plot) goes to {@code soak.out} (default
 * {@code bench-results/}).
 */
@Tag("soak")
class SinkSoakITCase {
    private static final int ROWS_PER_BATCH = 40;
    private static final Duration OUTAGE = Duration.ofSeconds(20);
    private static final Duration HEAP_SAMPLE_INTERVAL = Duration.ofSeconds(20);
    /** 0.25 MiB/min: 5 MiB over 20 minutes, a few percent of a task manager's live heap. */
    private static final double SLOPE_LIMIT = 0.25 * 1024 * 1024;

    @Test
    void soak() throws Exception {
        try (KafkaBroker broker = KafkaBroker.builder().startupTimeout(FaultJobs.LOADED_MACHINE_TIMEOUT).start()) {
            soak(broker);
        }
    }

    private static void soak(KafkaBroker broker) throws Exception {
        double minutes = Double.parseDouble(System.getProperty("soak.minutes", "20"));
        Duration faultEvery = Duration.ofSeconds(Long.getLong("soak.fault-seconds", 120));
        int rowsPerSecond = Integer.getInteger("soak.rows-per-second", 1000);
        Path out = Path.of(System.getProperty("soak.out", "../bench-results"));
        Duration duration = Duration.ofMillis((long) (minutes * 60_000));
        double batchesPerSecond = rowsPerSecond / (double) ROWS_PER_BATCH;
        long batches = (long) (batchesPerSecond * duration.toSeconds());
        String servers = broker.bootstrapServers();
        String topic = "soak";
        broker.createTopic(topic, 2);

        List<HeapSample> heap = Collections.synchronizedList(new ArrayList<>());
        List<SoakFault> faults = new ArrayList<>();
        SoakReport report;
        try (FlinkCluster cluster = FaultJobs.flinkCluster()) {
            StreamExecutionEnvironment env = FaultJobs.remoteEnvironment(cluster, Integer.MAX_VALUE);
            FaultJobs.build(env, SinkUnderTest.COLUMNAR, DeliveryGuarantee.EXACTLY_ONCE, servers, topic, batches,
                    ROWS_PER_BATCH, batchesPerSecond, Duration.ofMillis(300));
            JobClient job = env.executeAsync("soak");
            long start = System.nanoTime();
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            sampler.scheduleWithFixedDelay(() -> sampleHeap(cluster, start, heap), 0,
                    HEAP_SAMPLE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            try (OutputTimeline timeline = TopicVerifier.forTopic(servers, topic).startTimeline()) {
                assertThat(timeline.awaitCommitted(2_000, Duration.ofSeconds(120)))
                        .as("output flows\n%s", cluster.logTails()).isTrue();
                for (int k = 1; k * faultEvery.toNanos() < duration.toNanos() - faultEvery.toNanos() / 4; k++) {
                    sleepUntil(start + k * faultEvery.toNanos());
                    double at = minutesSince(start);
                    OutputTimeline.Fault fault = k % 2 == 1
                            ? killATaskManagerRunningTasks(cluster, job, timeline)
                            : FaultJobs.restartBroker(broker.brokerProcess(), OUTAGE, timeline);
                    Optional<Duration> recovery = timeline.awaitRecovery(fault, Duration.ofMinutes(3));
                    faults.add(new SoakFault(at, fault.description(), recovery.map(Duration::toMillis).orElse(-1L)));
                    System.out.printf("soak: %s at %.2f min, output resumed after %s%n", fault.description(), at,
                            recovery.map(d -> d.toMillis() + " ms").orElse("never"));
                    for (FlinkProcess tm : cluster.taskManagers()) {
                        if (!tm.isRunning()) {
                            tm.start();
                        }
                    }
                    cluster.awaitTaskManagers(2, FaultJobs.LOADED_MACHINE_TIMEOUT);
                }
                job.getJobExecutionResult().get(duration.toMinutes() + 10, TimeUnit.MINUTES);
            } finally {
                sampler.shutdownNow();
                sampler.awaitTermination(2, TimeUnit.MINUTES);
            }
            sampleHeap(cluster, start, heap);
            TopicReport rows = TopicVerifier.forTopic(servers, topic)
                    .awaitStableOffsets(Duration.ofSeconds(30))
                    .verifyIds(0, Math.toIntExact(batches * ROWS_PER_BATCH), TestRows::idOf);
            int open = TopicVerifier.awaitNoOpenTransactions(servers, topic, Duration.ofSeconds(30)).size();
            report = new SoakReport(String.format(
                    "Columnar sink (`ColumnarKafkaSink`, json), EXACTLY_ONCE, POOLING, 1 s checkpoints, parallelism 2,"
                            + " 2 partitions, %d rows/s for %.1f min, a fault every %d s alternating kill -9 of a task"
                            + " manager running the job (checkpoint in flight) and a broker stopped %d s; a job manager"
                            + " and 2 task managers (384 MiB heap each), one broker. Load average at the end: %s.",
                    rowsPerSecond, minutes, faultEvery.toSeconds(), OUTAGE.toSeconds(), loadAverage()),
                    rows.expectedCount(), rows.missingCount(), rows.duplicateCount(), open,
                    arrowBytesByTaskManager(cluster), cluster.taskManagers().size(), List.copyOf(heap), faults,
                    SLOPE_LIMIT);
        }
        String base = "soak-" + LocalDate.now() + "-" + Math.round(minutes) + "min";
        Path md = report.write(out, base, "Soak: columnar sink, EXACTLY_ONCE, faults every "
                + faultEvery.toSeconds() + " s");
        String text = Files.readString(md);
        System.out.println(text);
        assertThat(report.passed()).as(text).isTrue();
    }

    private static OutputTimeline.Fault killATaskManagerRunningTasks(FlinkCluster cluster, JobClient job,
                                                                     OutputTimeline timeline) {
        List<FlinkProcess> busy = cluster.taskManagersRunningTasks();
        assertThat(busy).as("a task manager runs the job").isNotEmpty();
        return FaultJobs.killWithCheckpointInFlight(cluster, busy.get(busy.size() - 1), job, timeline);
    }

    /** Heap after a full GC of each running task manager; a task manager dying meanwhile is skipped. */
    private static void sampleHeap(FlinkCluster cluster, long start, List<HeapSample> heap) {
        for (FlinkProcess tm : cluster.taskManagers()) {
            try {
                if (tm.isRunning()) {
                    long pid = tm.process().pid();
                    heap.add(new HeapSample(minutesSince(start), tm.name(), pid, HeapAfterGc.measure(pid)));
                }
            } catch (RuntimeException e) {
                System.out.println("soak: no heap sample of " + tm.name() + ": " + e.getMessage());
            }
        }
    }

    /**
     * Arrow bytes allocated in each task manager JVM, read by a probe job with a task in every slot; retried until
     * every task manager answered.
     */
    private static Map<String, Long> arrowBytesByTaskManager(FlinkCluster cluster) throws Exception {
        Map<Long, String> names = new TreeMap<>();
        cluster.taskManagers().forEach(tm -> names.put(tm.process().pid(), tm.name()));
        Map<String, Long> bytes = new TreeMap<>();
        for (int attempt = 0; attempt < 5 && bytes.size() < names.size(); attempt++) {
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createRemoteEnvironment("localhost", cluster.restPort());
            int slots = 2 * names.size();
            env.setParallelism(slots);
            try (CloseableIterator<String> answers =
                    env.fromSequence(0, 100L * slots).map(new ArrowMemoryOfThisJvm()).executeAndCollect()) {
                while (answers.hasNext()) {
                    String[] parts = answers.next().split(" ", 2);
                    bytes.put(names.getOrDefault(Long.parseLong(parts[0]), "pid " + parts[0]),
                            Long.parseLong(parts[1]));
                }
            }
        }
        return bytes;
    }

    /** This JVM's pid and the Arrow bytes allocated in it. */
    static final class ArrowMemoryOfThisJvm implements MapFunction<Long, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String map(Long ignored) {
            return ProcessHandle.current().pid() + " " + ArrowMemory.allocatedBytes();
        }
    }

    private static double minutesSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 60e9;
    }

    private static void sleepUntil(long nanoTime) {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            FaultJobs.sleep(Duration.ofNanos(wait));
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
