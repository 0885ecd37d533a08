package io.columnarkafka.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a KRaft node's {@code server.properties}: every node is a combined broker and controller on 127.0.0.1,
 * PLAINTEXT only. One node forms a dynamic quorum of itself ({@code controller.quorum.bootstrap.servers}, formatted
 * {@code --standalone}); several nodes form a static quorum ({@code controller.quorum.voters}). Internal topics are
 * replicated to every node up to 3, with a minimum in-sync of 2 once there are 3 (1 below that).
 */
final class KraftConfig {

    /** Properties the testkit manages; a user override of one is rejected. */
    static final Set<String> RESERVED_PROPERTIES = Set.of(
            "process.roles", "node.id", "listeners", "advertised.listeners", "controller.listener.names",
            "controller.quorum.bootstrap.servers", "controller.quorum.voters", "inter.broker.listener.name",
            "listener.security.protocol.map", "log.dirs", "log.dir", "metadata.log.dir");

    private KraftConfig() {
    }

    /** One node's address: its id, PLAINTEXT port and CONTROLLER port. */
    record Node(int id, int port, int controllerPort) {
        String controllerAddress() {
            return "127.0.0.1:" + controllerPort;
        }

        String voter() {
            return id + "@" + controllerAddress();
        }
    }

    /**
     * The properties of {@code node} in a cluster of {@code nodes} (itself included), in writing order: managed
     * listener, quorum and directory settings, then the testkit's defaults, then {@code overrides}.
     */
    static Map<String, String> properties(Node node, List<Node> nodes, Path dataDir, int defaultPartitions,
                                          Duration transactionMaxTimeout, Map<String, String> overrides) {
        int replicas = Math.min(nodes.size(), 3);
        String minInSync = replicas >= 3 ? "2" : "1";
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(node.id()));
        if (nodes.size() == 1) {
            p.put("controller.quorum.bootstrap.servers", node.controllerAddress());
        } else {
            p.put("controller.quorum.voters",
                    String.join(",", nodes.stream().map(Node::voter).toList()));
        }
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + node.port() + ",CONTROLLER://" + node.controllerAddress());
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + node.port());
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", dataDir.toString());
        p.put("num.partitions", Integer.toString(defaultPartitions));
        p.put("default.replication.factor", Integer.toString(replicas));
        p.put("min.insync.replicas", minInSync);
        p.put("offsets.topic.replication.factor", Integer.toString(replicas));
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", Integer.toString(replicas));
        p.put("transaction.state.log.min.isr", minInSync);
        p.put("transaction.state.log.num.partitions", "1");
        p.put("transaction.max.timeout.ms", Long.toString(transactionMaxTimeout.toMillis()));
        p.put("share.coordinator.state.topic.replication.factor", Integer.toString(replicas));
        p.put("share.coordinator.state.topic.min.isr", minInSync);
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "false");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        p.put("background.threads", "4");
        p.put("num.recovery.threads.per.data.dir", "1");
        // tests write records stamped decades ago (1970, 2020); time-based retention would delete them under a test
        // whenever a long-lived broker's retention check comes round
        p.put("log.retention.ms", "-1");
        p.putAll(overrides);
        return p;
    }

    /**
     * {@code count} nodes with ids 1..count on free loopback ports, picked by binding port 0 (a port may be taken again
     * before the broker binds it; {@link BrokerProcess.PortConflictException} tells).
     */
    static List<Node> newNodes(int count) throws IOException {
        ServerSocket[] sockets = new ServerSocket[2 * count];
        try {
            for (int i = 0; i < sockets.length; i++) {
                sockets[i] = new ServerSocket();
                sockets[i].setReuseAddress(true);
                sockets[i].bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            }
            List<Node> nodes = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                nodes.add(new Node(i + 1, sockets[2 * i].getLocalPort(), sockets[2 * i + 1].getLocalPort()));
            }
            return nodes;
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    /** {@code properties} in the {@code .properties} file format. */
    static String write(Map<String, String> properties) {
        StringBuilder out = new StringBuilder("# Written by io.columnarkafka.testkit\n");
        properties.forEach((key, value) -> out.append(key).append('=').append(escape(value)).append('\n'));
        return out.toString();
    }

    /** Arguments of {@code kafka-storage.sh format} for a node of a cluster of {@code nodes}. */
    static String[] formatArguments(String clusterId, Path propertiesFile, int nodes) {
        return nodes == 1
                ? new String[] {"format", "-t", clusterId, "-c", propertiesFile.toString(), "--standalone"}
                : new String[] {"format", "-t", clusterId, "-c", propertiesFile.toString()};
    }

    private static String escape(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** A log4j2 configuration logging at {@code level} to stdout, which the testkit sends to {@code broker.log}. */
    static String log4j(String level) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- Written by io.columnarkafka.testkit: quiet broker logging to stdout (broker.log). -->
                <Configuration status="WARN">
                  <Appenders>
                    <Console name="STDOUT" target="SYSTEM_OUT">
                      <PatternLayout pattern="[%d{HH:mm:ss.SSS}] %-5p [%t] %c - %m%n"/>
                    </Console>
                  </Appenders>
                  <Loggers>
                    <Logger name="kafka.server.KafkaRaftServer" level="INFO"/>
                    <Root level="LEVEL">
                      <AppenderRef ref="STDOUT"/>
                    </Root>
                  </Loggers>
                </Configuration>
                """.replace("LEVEL", level);
    }
}
