package io.columnarkafka.sql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * What {@code bin/sql-client.sh embedded -j <jar> -f <script>} does, for a test on Maven jars:
 * flink-sql-client 2.2.1 is not published to Maven Central. Like the SQL client it reads
 * {@code $FLINK_CONF_DIR/config.yaml}, submits to the cluster there ({@code execution.target} remote unless
 * set), adds each {@code -j} jar to the session as {@code ADD JAR} does (the session's user class loader,
 * shipped to the cluster with each job), runs the script's statements in order, prints results with
 * content (EXPLAIN) and waits for each INSERT's job to finish ({@code table.dml-sync}). Exits 1 on the
 * first failing statement.
 *
 * <p>Runs in a child JVM whose classpath is the Flink distribution's lib/ only (see {@link FlinkLib}).
 */
public final class EmbeddedSqlClient {
    private EmbeddedSqlClient() {
    }

    public static void main(String[] args) {
        List<String> jars = new ArrayList<>();
        Path script = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-j" -> jars.add(args[++i]);
                case "-f" -> script = Paths.get(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        int status = 0;
        try {
            run(jars, statements(Files.readString(script)));
        } catch (Throwable t) {
            System.out.println("[ERROR] " + t);
            t.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    private static final Pattern STATEMENT_SET = Pattern.compile("(?is)\\s*EXECUTE\\s+STATEMENT\\s+SET\\s+BEGIN\\b");

    /** {@code SET 'key' = 'value'}, as the SQL client takes it. */
    private static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'([^']*)'");

    private static void run(List<String> jars, List<String> statements) throws Exception {
        Configuration conf = GlobalConfiguration.loadConfiguration(System.getenv("FLINK_CONF_DIR"));
        if (!conf.contains(DeploymentOptions.TARGET)) {
            conf.set(DeploymentOptions.TARGET, "remote");
        }
        TableEnvironment tEnv = TableEnvironment.create(
                EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(conf).build());
        for (String jar : jars) {
            tEnv.executeSql("ADD JAR '" + jar + "'");
        }
        for (String statement : statements) {
            System.out.println("Flink SQL> " + statement);
            Matcher set = SET.matcher(statement);
            if (set.matches()) {
                // The SQL client's SET: a session option, which the planner and table factories read from the
                // TableConfig (TableEnvironment#executeSql has no SET).
                tEnv.getConfig().set(set.group(1), set.group(2));
                System.out.println("[INFO] Execute statement succeeded.");
                continue;
            }
            TableResult result = tEnv.executeSql(statement);
            if (result.getJobClient().isPresent()) {
                System.out.println("[INFO] Submitted job " + result.getJobClient().get().getJobID());
                result.await();
                System.out.println("[INFO] Job finished: " + result.getJobClient().get().getJobStatus().get());
            } else if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
                result.print();
            } else {
                System.out.println("[INFO] Execute statement succeeded.");
            }
        }
    }

    /**
     * Statements end with {@code ;} at the end of a line; {@code --} lines are comments. A statement set ({@code
     * EXECUTE STATEMENT SET BEGIN ... END;}) is one statement, its INSERTs one job, as in the SQL client.
     */
    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            if (line.strip().startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            boolean inSet = STATEMENT_SET.matcher(current).lookingAt();
            if (inSet ? line.strip().equalsIgnoreCase("END;") : line.stripTrailing().endsWith(";")) {
                String statement = current.toString().strip();
                statements.add(statement.substring(0, statement.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            statements.add(current.toString().strip());
        }
        return statements;
    }
}
