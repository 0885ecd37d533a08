package io.columnarkafka.format.avro;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A minimal client of the Confluent Schema Registry REST API over {@code java.net.http}: registers a
 * schema under a subject ({@code POST /subjects/{subject}/versions} with {@code {"schema": "..."}}, answer
 * {@code {"id": N}}) or, without auto-registration, looks its id up ({@code POST /subjects/{subject}}); fetches
 * the schema of an id for a decoder ({@code GET /schemas/ids/{id}}). Ids are cached per subject and schema text, as Confluent's caching client does, so a task asks once. A registry
 * that is down, slow or overloaded is retried ({@link RegistryRetries}).
 */
final class SchemaRegistryClient {
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");

    private final URI base;
    private final String authorization;
    private final HttpClient http;
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final RegistryRetries retries;

    SchemaRegistryClient(AvroConfluentFormatOptions options) {
        this(options, RegistryRetries.DEFAULT);
    }

    SchemaRegistryClient(AvroConfluentFormatOptions options, RegistryRetries retries) {
        this.retries = retries;
        String url = options.url().endsWith("/") ? options.url() : options.url() + "/";
        this.base = URI.create(url);
        this.authorization = authorization(options, base);
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(retries.requestTimeout());
        if (options.keystoreLocation() != null || options.truststoreLocation() != null) {
            builder.sslContext(sslContext(options));
        }
        this.http = builder.build();
    }

    /**
     * The id of {@code schema} under {@code subject}: registered if {@code register}, else looked up. Failures that
     * may pass are retried as {@link RegistryRetries} says.
     *
     * @throws IllegalStateException naming the registry, the subject and the last failure, when the registry
     *     refused the schema or did not answer within the retries
     */
    int id(String subject, String schema, boolean register) {
        String cacheKey = subject + '\n' + schema;
        Integer cached = ids.get(cacheKey);
        if (cached != null) {
            return cached;
        }
        String path = "subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20")
                + (register ? "/versions" : "");
        String body = "{\"schema\":" + jsonString(schema) + "}";
        String what = (register ? "registering" : "looking up") + " the schema of subject '" + subject + "'";
        String answer = send(request(path).POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)),
                what);
        Matcher id = ID.matcher(answer);
        if (!id.find()) {
            throw new IllegalStateException("schema registry " + base + " answered " + what + " without an id: " + answer);
        }
        int value = Integer.parseInt(id.group(1));
        ids.put(cacheKey, value);
        return value;
    }

    /**
     * The text of the schema with id {@code id} ({@code GET /schemas/ids/{id}}, answer {@code {"schema": "..."}}, as
     * Confluent's client asks when Flink's {@code ConfluentSchemaRegistryCoder} reads a record's schema id), or null
     * when the registry answers 404 (no such id). Failures that may pass are retried as {@link RegistryRetries} says.
     *
     * @throws IllegalStateException naming the registry and the id, when the registry answered otherwise, gave a
     *     schema that is not Avro, or did not answer within the retries
     */
    String schema(int id) {
        String what = "looking up schema id " + id;
        String answer;
        try {
            answer = send(request("schemas/ids/" + id).GET(), what);
        } catch (NotFound e) {
            return null;
        }
        String type = JsonStringField.of(answer, "schemaType");
        if (type != null && !type.equals("AVRO")) {
            throw new IllegalStateException("schema registry " + base + ": schema id " + id + " is a " + type
                    + " schema, not Avro");
        }
        String schema = JsonStringField.of(answer, "schema");
        if (schema == null) {
            throw new IllegalStateException("schema registry " + base + " answered " + what + " without a schema: "
                    + answer);
        }
        return schema;
    }

    /** The registry answered 404. */
    static final class NotFound extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NotFound(String message) {
            super(message);
        }
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path))
                .timeout(retries.requestTimeout())
                .header("Content-Type", CONTENT_TYPE)
                .header("Accept", CONTENT_TYPE);
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        return builder;
    }

    /** The body of the registry's 200 answer to {@code request}, retrying failures that may pass. */
    private String send(HttpRequest.Builder builder, String what) {
        HttpRequest request = builder.build();
        long start = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            String failure;
            IOException cause = null;
            try {
                HttpResponse<String> response =
                        http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                if (response.statusCode() == 200) {
                    return response.body();
                }
                if (!RegistryRetries.transientStatus(response.statusCode())) {
                    String message = "schema registry " + base + " answered " + response.statusCode() + " to "
                            + what + ": " + response.body();
                    throw response.statusCode() == 404 ? new NotFound(message) : new IllegalStateException(message);
                }
                failure = "answered " + response.statusCode() + ": " + response.body();
            } catch (HttpTimeoutException e) {
                cause = e;
                failure = "did not answer within " + retries.requestTimeout().toMillis() + " ms";
            } catch (IOException e) {
                cause = e;
                failure = "was unreachable (" + e + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while " + what + " at the schema registry " + base, e);
            }
            if (attempt > retries.maxRetries()) {
                throw new IllegalStateException("schema registry " + base + " failed " + what + ": " + attempt
                        + " attempts over " + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms, the last "
                        + failure, cause);
            }
            sleep(retries.waitBefore(attempt), what);
        }
    }

    private void sleep(Duration wait, String what) {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry " + what + " at the schema registry "
                    + base, e);
        }
    }

    private static String authorization(AvroConfluentFormatOptions options, URI base) {
        if ("STATIC_TOKEN".equals(options.bearerAuthSource())) {
            return "Bearer " + options.bearerAuthToken();
        }
        String userInfo = null;
        if ("USER_INFO".equals(options.basicAuthSource())) {
            userInfo = options.basicAuthUserInfo();
        } else if ("URL".equals(options.basicAuthSource())) {
            userInfo = base.getUserInfo();
        }
        return userInfo == null ? null
                : "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }

    private static SSLContext sslContext(AvroConfluentFormatOptions options) {
        try {
            KeyManagerFactory keys = null;
            if (options.keystoreLocation() != null) {
                char[] password = chars(options.keystorePassword());
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(load(options.keystoreLocation(), password), password);
            }
            TrustManagerFactory trust = null;
            if (options.truststoreLocation() != null) {
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(load(options.truststoreLocation(), chars(options.truststorePassword())));
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(),
                    trust == null ? null : trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("avro-confluent ssl.* options: " + e.getMessage(), e);
        }
    }

    private static KeyStore load(String location, char[] password) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        try (InputStream in = Files.newInputStream(Path.of(location))) {
            store.load(in, password);
        }
        return store;
    }

    private static char[] chars(String password) {
        return password == null ? null : password.toCharArray();
    }

    /** {@code text} as a JSON string literal. */
    static String jsonString(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
