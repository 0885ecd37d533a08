package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The open phase's steps from a spare TaskManager's log: lines shortened from a columnar q0 recovery cell's, times
 * worked by hand from the first task initializing (16:23:00,170).
 */
class OpenStepsTest {
    @Test
    void timesEachStepFromTheFirstTaskInitializing() {
        List<String> log = List.of(
                "16:21:58,682 WARN  PluginConfig - The plugins directory [plugins] does not exist.",
                "16:22:59,834 INFO  Task - Source: x (2/2)#1 (9c3) switched from CREATED to DEPLOYING.",
                "16:23:00,170 INFO  Task - Source: x (1/2)#1 (9c3) switched from DEPLOYING to INITIALIZING.",
                "16:23:00,176 INFO  Task - Source: x (2/2)#1 (9c3) switched from DEPLOYING to INITIALIZING.",
                "16:23:01,066 INFO  BaseAllocator - Debug mode disabled.",
                "16:23:01,370 INFO  ArrowWarmUp - Arrow warm-up done in 1190 ms",
                "16:23:02,807 INFO  SourceReaderBase - Rate limiting of SourceReader is disabled",
                "16:23:02,809 INFO  SourceReaderBase - Rate limiting of SourceReader is disabled",
                "16:23:04,230 INFO  FlinkKafkaInternalProducer - Attempting to resume transaction t-1-6 with producerId 503",
                "org.apache.kafka.common.errors.ProducerFencedException: There is a newer producer",
                "16:23:04,241 INFO  FlinkKafkaInternalProducer - Attempting to resume transaction t-0-6 with producerId 504",
                "16:23:06,219 INFO  ExactlyOnceKafkaWriter - Aborting lingering transactions from previous execution.",
                "16:23:06,222 INFO  ExactlyOnceKafkaWriter - Aborting lingering transactions from previous execution.",
                "16:23:06,701 INFO  SourceReaderBase - Adding split(s) to reader: [[Partition: in-1]]",
                "16:23:06,705 INFO  SourceReaderBase - Adding split(s) to reader: [[Partition: in-0]]",
                "16:23:06,897 INFO  Task - Source: x (2/2)#1 (9c3) switched from INITIALIZING to RUNNING.",
                "16:23:06,901 INFO  Task - Source: x (1/2)#1 (9c3) switched from INITIALIZING to RUNNING.");

        OpenSteps steps = OpenSteps.of(log);

        // arrow 01,066 − 00,170 = 896; warmUp 1,200; reader (the last) 2,639; commit (first) 4,060; abort (first) 6,049;
        // splits (last) 6,535; running (last) 6,731.
        assertThat(steps).isEqualTo(new OpenSteps(896, 1_200, 2_639, 4_060, 6_049, 6_535, 6_731));
        assertThat(steps.toString()).isEqualTo(
                "arrow=896 warmUp=1200 reader=2639 commitRestored=4060 abortLingering=6049 splits=6535 running=6731");
    }

    @Test
    void marksMissingStepsAndCountsPastMidnight() {
        OpenSteps steps = OpenSteps.of(List.of(
                "23:59:59,900 INFO  Task - Source: x (1/1)#1 (1) switched from DEPLOYING to INITIALIZING.",
                "00:00:00,400 INFO  SourceReaderBase - Rate limiting of SourceReader is disabled",
                "00:00:01,000 INFO  Task - Source: x (1/1)#1 (1) switched from INITIALIZING to RUNNING."));

        assertThat(steps).isEqualTo(new OpenSteps(-1, -1, 500, -1, -1, -1, 1_100));
        assertThat(steps.toString()).startsWith("arrow=– warmUp=– reader=500 commitRestored=–");
        assertThat(OpenSteps.of(List.of("16:00:00,000 INFO  Slf4jLogger - Slf4jLogger started"))).isNull();
    }
}
