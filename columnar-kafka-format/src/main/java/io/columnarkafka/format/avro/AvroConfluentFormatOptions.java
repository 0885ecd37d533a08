package io.columnarkafka.format.avro;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Options of Flink's {@code avro-confluent} format (SQL prefix {@code avro-confluent.}), with the keys of
 * Flink's {@code AvroConfluentFormatOptions} and their fallback keys, without the prefix:
 *
 * <ul>
 *   <li>{@code url} (or {@code schema-registry.url}): the registry's base URL; required;
 *   <li>{@code subject} (or {@code schema-registry.subject}): required here. Flink's Kafka connector fills it
 *       in as {@code <topic>-value} / {@code <topic>-key} when it is not set; callers do the same with
 *       {@link #defaultSubject};
 *   <li>{@code auto.register.schemas} (default true): register the schema, or only look its id up;
 *   <li>{@code basic-auth.credentials-source} ({@code USER_INFO} or {@code URL}), {@code basic-auth.user-info};
 *   <li>{@code bearer-auth.credentials-source} ({@code STATIC_TOKEN}), {@code bearer-auth.token};
 *   <li>{@code ssl.keystore.location}, {@code ssl.keystore.password}, {@code ssl.truststore.location},
 *       {@code ssl.truststore.password}.
 * </ul>
 *
 * <p>{@code schema} (or {@code schema-registry.schema}), a hand-written Avro schema, is read for decoding only
 * ({@link #forDecoding}): Flink's decoder reads with it as the reader schema; null when not set. Not supported:
 * {@code schema} for encoding and {@code properties.*} (pass-through to Confluent's client); they are rejected
 * rather than ignored.
 */
public record AvroConfluentFormatOptions(String url, String subject, boolean autoRegister, String basicAuthSource,
        String basicAuthUserInfo, String bearerAuthSource, String bearerAuthToken, String keystoreLocation,
        String keystorePassword, String truststoreLocation, String truststorePassword, String schema) {

    private static final Set<String> KEYS = Set.of("url", "schema-registry.url", "subject",
            "schema-registry.subject", "auto.register.schemas", "basic-auth.credentials-source",
            "basic-auth.user-info", "bearer-auth.credentials-source", "bearer-auth.token", "ssl.keystore.location",
            "ssl.keystore.password", "ssl.truststore.location", "ssl.truststore.password");
    /** The reader schema's keys, read only for decoding. */
    private static final Set<String> SCHEMA_KEYS = Set.of("schema", "schema-registry.schema");

    public AvroConfluentFormatOptions {
        Objects.requireNonNull(url, "avro-confluent option 'url' is required");
    }

    /** The subject Flink's Kafka connector uses when none is configured: {@code <topic>-key} or {@code -value}. */
    public static String defaultSubject(String topic, boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }

    /**
     * {@code options} with the subject Flink's Kafka connector fills in when none is set ({@link
     * #defaultSubject}); {@code options} itself if it names a subject.
     */
    public static Map<String, String> withDefaultSubject(Map<String, String> options, String topic, boolean isKey) {
        if (options.containsKey("subject") || options.containsKey("schema-registry.subject")) {
            return options;
        }
        Map<String, String> filled = new HashMap<>(options);
        filled.put("subject", defaultSubject(topic, isKey));
        return filled;
    }

    /**
     * Reads Flink's option keys without the {@code avro-confluent.} prefix.
     *
     * @throws IllegalArgumentException for a missing url or subject, an unknown or unsupported key or value
     */
    public static AvroConfluentFormatOptions fromMap(Map<String, String> options) {
        return parse(options, false);
    }

    /**
     * Reads Flink's option keys for a decoder, which needs no subject (Flink's decoder reads each record's schema
     * id, and its factory does not read the subject; {@link #subject} is then null when none is set) and takes a
     * {@code schema}, the reader schema.
     *
     * @throws IllegalArgumentException for a missing url, an unknown or unsupported key or value
     */
    public static AvroConfluentFormatOptions forDecoding(Map<String, String> options) {
        return parse(options, true);
    }

    private static AvroConfluentFormatOptions parse(Map<String, String> options, boolean decoding) {
        boolean needSubject = !decoding;
        for (String key : options.keySet()) {
            if (!KEYS.contains(key) && !(decoding && SCHEMA_KEYS.contains(key))) {
                throw new IllegalArgumentException("avro-confluent option '" + key + "' is not supported by the"
                        + " columnar codecs; supported: " + KEYS);
            }
        }
        String url = either(options, "url", "schema-registry.url");
        String subject = either(options, "subject", "schema-registry.subject");
        if (url == null || (needSubject && subject == null)) {
            throw new IllegalArgumentException("avro-confluent needs the options 'url' and 'subject' (the Kafka"
                    + " connector's default subject is '<topic>-value' or '<topic>-key')");
        }
        String basic = options.get("basic-auth.credentials-source");
        if (basic != null && !basic.equals("USER_INFO") && !basic.equals("URL")) {
            throw new IllegalArgumentException(
                    "avro-confluent option 'basic-auth.credentials-source' must be USER_INFO or URL, not " + basic);
        }
        String bearer = options.get("bearer-auth.credentials-source");
        if (bearer != null && !bearer.equals("STATIC_TOKEN")) {
            throw new IllegalArgumentException(
                    "avro-confluent option 'bearer-auth.credentials-source' must be STATIC_TOKEN, not " + bearer);
        }
        return new AvroConfluentFormatOptions(url, subject,
                AvroFormatOptions.bool(options, "auto.register.schemas", true), basic,
                options.get("basic-auth.user-info"), bearer, options.get("bearer-auth.token"),
                options.get("ssl.keystore.location"), options.get("ssl.keystore.password"),
                options.get("ssl.truststore.location"), options.get("ssl.truststore.password"),
                either(options, "schema", "schema-registry.schema"));
    }

    private static String either(Map<String, String> options, String key, String fallback) {
        String value = options.get(key);
        return value != null ? value : options.get(fallback);
    }
}
