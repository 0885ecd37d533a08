package io.columnarkafka.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The connector jar as shipped carries what the Apache License asks of a redistribution: the license
 * text, every bundled artifact's NOTICE, and the list of bundled artifacts with their licenses (all on the
 * build's allow-list, which the build enforces).
 */
class ShadedJarLicensesIT {

    @Test
    void theJarCarriesTheLicenseTheNoticesAndTheBundledArtifactList() throws IOException {
        Path jar = Path.of(System.getProperty("connector.jar"));
        String projectLicense = Files.readString(Path.of(System.getProperty("project.license")));
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(text(file, "META-INF/LICENSE")).isEqualTo(projectLicense);
            assertThat(text(file, "META-INF/NOTICE"))
                    .contains("columnar-kafka", "Arrow Vectors", "Apache Avro", "Jackson",
                            "Flink : Connectors : Kafka");
            assertThat(text(file, "NOTICE")).contains("Apache Kafka");
            String bundled = text(file, "META-INF/THIRD-PARTY.txt");
            for (String artifact : new String[] {"org.apache.kafka:kafka-clients", "org.apache.arrow:arrow-vector",
                    "org.apache.avro:avro", "com.google.flatbuffers:flatbuffers-java",
                    "com.fasterxml.jackson.core:jackson-databind", "org.apache.flink:flink-connector-kafka"}) {
                assertThat(bundled).contains("(Apache License, Version 2.0)").contains(artifact);
            }
            assertThat(bundled.lines().filter(line -> line.contains(" (") && !line.contains("Lists of")))
                    .allMatch(line -> line.strip().startsWith("(Apache License, Version 2.0)"));
        }
    }

    private static String text(JarFile jar, String entry) throws IOException {
        var found = jar.getJarEntry(entry);
        assertThat(found).as("%s in the connector jar", entry).isNotNull();
        return new String(jar.getInputStream(found).readAllBytes(), StandardCharsets.UTF_8);
    }
}
