package io.columnarkafka.bench;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link JsonEncoderBenchmark} once per batch size with JMH's operations per invocation set to the
 * batch size, so every score is per row, and writes all results into one result file.
 *
 * <p>Takes JMH's command line. {@code -p batchSize=...} picks the batch sizes (default: the
 * benchmark's), {@code -rf}/{@code -rff} name the one combined result file, positional arguments select
 * benchmarks as in JMH (default: all of {@link JsonEncoderBenchmark}). Other options go to JMH as they are.
 */
public final class EncoderBenchmarks {
    private static final List<String> DEFAULT_BATCH_SIZES = List.of("64", "256", "1024", "4096", "16384");

    private EncoderBenchmarks() {}

    public static void main(String[] args) throws Exception {
        List<String> jmhArgs = new ArrayList<>();
        ResultFormatType format = null;
        String resultFile = null;
        for (int a = 0; a < args.length; a++) {
            if (args[a].equals("-rf") && a + 1 < args.length) {
                format = ResultFormatType.valueOf(args[++a].toUpperCase(java.util.Locale.ROOT));
            } else if (args[a].equals("-rff") && a + 1 < args.length) {
                resultFile = args[++a];
            } else {
                jmhArgs.add(args[a]);
            }
        }
        CommandLineOptions cli = new CommandLineOptions(jmhArgs.toArray(String[]::new));
        if (cli.shouldHelp() || cli.shouldList() || cli.shouldListWithParams() || cli.shouldListProfilers()
                || cli.shouldListResultFormats()) {
            org.openjdk.jmh.Main.main(args);
            return;
        }
        Collection<String> batchSizes = cli.getParameter("batchSize").orElse(DEFAULT_BATCH_SIZES);

        List<RunResult> results = new ArrayList<>();
        for (String batchSize : batchSizes) {
            OptionsBuilder options = new OptionsBuilder();
            options.parent(cli)
                    .param("batchSize", batchSize)
                    .operationsPerInvocation(Integer.parseInt(batchSize));
            if (cli.getIncludes().isEmpty()) {
                options.include(JsonEncoderBenchmark.class.getName());
            }
            Options built = options.build();
            results.addAll(new Runner(built).run());
        }

        if (format != null || resultFile != null) {
            ResultFormatType type = format != null ? format : ResultFormatType.JSON;
            Path file = Path.of(resultFile != null ? resultFile : "jmh-result." + type.name().toLowerCase());
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            try (PrintStream out = new PrintStream(Files.newOutputStream(file), true, StandardCharsets.UTF_8)) {
                ResultFormatFactory.getInstance(type, out).writeOut(results);
            }
            System.out.println("results of " + results.size() + " runs written to " + file);
        }
    }
}
