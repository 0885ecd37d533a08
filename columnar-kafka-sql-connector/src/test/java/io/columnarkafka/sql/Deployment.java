package io.columnarkafka.sql;

import java.nio.file.Path;
import java.util.List;

/** The two ways README shows to give the connector jar to Flink: {@code sql-client.sh -j <jar>}, or lib/. */
enum Deployment {
    /** The cluster's lib/ is Flink's only; the client gets the jar with -j and ships it with each job. */
    SQL_CLIENT_J,
    /** The jar in lib/ of the cluster's processes and of the client; no -j. */
    CLUSTER_LIB;

    /** What the processes' lib/ holds beside Flink's jars. */
    List<Path> inLib(Path connectorJar) {
        return this == CLUSTER_LIB ? List.of(connectorJar) : List.of();
    }

    /** The SQL client's arguments for the jar. */
    List<String> clientArgs(Path connectorJar) {
        return this == SQL_CLIENT_J ? List.of("-j", connectorJar.toString()) : List.of();
    }
}
