package io.columnarkafka.flink.testing;

import io.columnarkafka.testkit.KafkaBroker;
import io.columnarkafka.testkit.TopicVerifier;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;

/** Waiting on a running job's committed output, for tests that stop or switch jobs part-way. */
public final class JobOutput {
    private JobOutput() {}

    /**
     * Waits up to 120 s until {@code topic} holds {@code count} records visible to {@code read_committed}; fails at
     * once, with the job's failure, if the job ends first.
     */
    public static void awaitCommitted(JobClient job, KafkaBroker broker, String topic, long count, String what)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (TopicVerifier.forTopic(broker, topic).read().totalRecords() < count) {
            if (job.getJobStatus().get().isGloballyTerminalState()) {
                job.getJobExecutionResult().get(); // throws the job's failure
                throw new AssertionError(what + ": the job ended first");
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within 120 s");
            }
            Thread.sleep(100);
        }
    }

    /** Cancels {@code job} unless it has ended (so a failed test leaves no job holding the cluster's slots). */
    public static void cancelIfRunning(JobClient job) throws Exception {
        if (!job.getJobStatus().get().isGloballyTerminalState()) {
            job.cancel().get();
        }
    }
}
