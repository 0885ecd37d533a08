package io.columnarkafka.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** Entry point of the {@code columnar-kafka} command. Exit codes: 0 ok, 1 failed, 2 bad usage. */
public final class ColumnarKafkaCli {
    static final String USAGE = String.join("\n",
            "usage: columnar-kafka <command> [options]",
            "",
            "commands:",
            "  demo     the main job: Nexmark bids through the columnar sink, exactly once, verified (see demo --help)",
            "  encode   encode an Arrow IPC file into the records a sink would write (see encode --help)",
            "  decode   decode framed records into the Arrow IPC stream a source would make (see decode --help)",
            "  produce  send an Arrow IPC file to a topic through the standalone client, verified (see produce --help)");

    private ColumnarKafkaCli() {}

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /** Runs a command line and returns its exit code; errors are one line on {@code stderr}. */
    static int run(List<String> args, PrintStream stdout, PrintStream stderr) {
        if (!args.isEmpty() && (args.get(0).equals("--help") || args.get(0).equals("-h"))) {
            stdout.println(USAGE);
            return 0;
        }
        if (args.isEmpty()) {
            stderr.println(USAGE);
            return 2;
        }
        String command = args.get(0);
        List<String> rest = args.subList(1, args.size());
        try {
            switch (command) {
                case "demo":
                    if (rest.contains("--help")) {
                        stdout.println(DemoCommand.USAGE);
                        return 0;
                    }
                    return DemoCommand.parse(rest).run(stdout) ? 0 : 1;
                case "encode":
                    if (rest.contains("--help")) {
                        stdout.println(EncodeCommand.USAGE);
                        return 0;
                    }
                    EncodeCommand.parse(rest).run(stdout);
                    stdout.flush();
                    return 0;
                case "decode":
                    if (rest.contains("--help")) {
                        stdout.println(DecodeCommand.USAGE);
                        return 0;
                    }
                    DecodeCommand.parse(rest).run(stdout);
                    stdout.flush();
                    return 0;
                case "produce":
                    if (rest.contains("--help")) {
                        stdout.println(ProduceCommand.USAGE);
                        return 0;
                    }
                    return ProduceCommand.parse(rest).run(stdout) ? 0 : 1;
                default:
                    throw new UsageException("unknown command '" + command + "'; see --help");
            }
        } catch (UsageException e) {
            stderr.println("columnar-kafka " + command + ": " + e.getMessage());
            return 2;
        } catch (Exception e) {
            stderr.println("columnar-kafka " + command + ": " + oneLine(e));
            return 1;
        }
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replace('\n', ' ');
    }
}
