package io.columnarkafka.bench;

/**
 * The command line every end-to-end benchmark shares: {@code --flag value} pairs, {@code --help}, and the
 * exit codes scripts rely on (0 all rows passed, 1 a FAIL row, 2 a usage error).
 */
public final class BenchCommand {
    /** Applies one flag; throws {@link IllegalArgumentException} for an unknown flag or a bad value. */
    public interface Flags {
        void set(String flag, String value);
    }

    /** Parses the command line into a benchmark, or throws {@link IllegalArgumentException} with the reason. */
    public interface Parser<B> {
        B parse(String[] args);
    }

    /** Runs a parsed benchmark; returns whether every row passed its parity check. */
    public interface Runner<B> {
        boolean run(B benchmark) throws Exception;
    }

    private static final class HelpRequested extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
    }

    private BenchCommand() {}

    /** Feeds each {@code --flag value} pair to {@code flags}, in order. */
    public static void forEachFlag(String[] args, Flags flags) {
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                throw new HelpRequested();
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            flags.set(flag, args[++i]);
        }
    }

    /** Parses, runs, and exits the JVM with the code scripts read. */
    public static <B> void main(String[] args, String usage, Parser<B> parser, Runner<B> runner)
            throws Exception {
        B benchmark;
        try {
            benchmark = parser.parse(args);
        } catch (HelpRequested e) {
            System.out.println(usage);
            System.exit(0);
            return;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(usage);
            System.exit(2);
            return;
        }
        System.exit(runner.run(benchmark) ? 0 : 1);
    }
}
