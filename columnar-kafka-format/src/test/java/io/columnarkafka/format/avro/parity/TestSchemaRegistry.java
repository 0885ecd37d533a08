package io.columnarkafka.format.avro.parity;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.avro.Schema;

/**
 * A small in-process schema registry following the Confluent Schema Registry REST contract for the two
 * calls a producer makes: {@code POST /subjects/{subject}/versions} (register; {@code {"id": N}}, the same id
 * for the same schema) and {@code POST /subjects/{subject}} (look up; 404 with error 40403 when the subject
 * lacks the schema), and the one a consumer makes: {@code GET /schemas/ids/{id}} ({@code {"schema": "..."}}; 404
 * with error 40403 for an unknown id). Requests are parsed with Avro's own schema parser; every request is recorded.
 * Public: the flink module's broker test of {@code avro-confluent} registers through it too. For the fault tests it
 * can go down and come back on the same port ({@link #stop()}, {@link #start()}), answer slowly
 * ({@link #delayAnswers}) or fail requests with a status ({@link #failNext}).
 */
public final class TestSchemaRegistry implements AutoCloseable {
    /** One request: method, decoded path, Authorization header, body. */
    public record Request(String method, String path, String authorization, String body) {}

    private final int port;
    private HttpServer server;
    /** Answers held back this long before they are computed: a slow registry. */
    private volatile Duration delay = Duration.ZERO;
    private int failuresLeft;
    private int failureStatus;
    private final Map<String, Integer> idsBySchema = new HashMap<>();
    private final Map<String, Map<String, Integer>> subjects = new HashMap<>();
    private final List<Request> requests = new ArrayList<>();
    private final String requiredAuthorization;

    public TestSchemaRegistry(String requiredAuthorization) throws IOException {
        this.requiredAuthorization = requiredAuthorization;
        server = listen(0);
        port = server.getAddress().getPort();
    }

    private HttpServer listen(int onPort) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", onPort), 0);
        http.createContext("/subjects/", exchange -> {
            pause(delay);
            handle(exchange);
        });
        http.createContext("/schemas/ids/", exchange -> {
            pause(delay);
            handleSchemaById(exchange);
        });
        http.setExecutor(Executors.newCachedThreadPool());
        http.start();
        return http;
    }

    /** Takes the registry down: connections to its port are refused until {@link #start()}. */
    public synchronized void stop() {
        if (server != null) {
            server.stop(0);
            ((ExecutorService) server.getExecutor()).shutdownNow();
            server = null;
        }
    }

    /** Brings a stopped registry back on the same port, with the same schemas. */
    public synchronized void start() throws IOException {
        if (server == null) {
            server = listen(port);
        }
    }

    /** Makes every answer from now on wait {@code wait} first (a slow registry). */
    public void delayAnswers(Duration wait) {
        delay = wait;
    }

    /** Answers the next {@code count} requests with HTTP {@code status} (e.g. 503, an overloaded registry). */
    public synchronized void failNext(int count, int status) {
        failuresLeft = count;
        failureStatus = status;
    }

    private static void pause(Duration wait) {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public synchronized List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Registers {@code schema} under {@code subject} as an administrator would, returning its id. */
    public synchronized int preRegister(String subject, String schema) {
        int id = idsBySchema.computeIfAbsent(new Schema.Parser().parse(schema).toString(), s -> 100 + idsBySchema.size());
        subjects.computeIfAbsent(subject, s -> new HashMap<>()).put(new Schema.Parser().parse(schema).toString(), id);
        return id;
    }

    /** The text of the schema with {@code id}, or null: what {@code GET /schemas/ids/{id}} answers. */
    public synchronized String schemaText(int id) {
        return idsBySchema.entrySet().stream().filter(e -> e.getValue() == id).map(Map.Entry::getKey).findFirst()
                .orElse(null);
    }

    private synchronized void handleSchemaById(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        requests.add(new Request(exchange.getRequestMethod(), path, authorization, ""));
        if (refused(exchange, authorization)) {
            return;
        }
        String id = path.substring("/schemas/ids/".length());
        String schema = id.matches("\\d{1,9}") ? schemaText(Integer.parseInt(id)) : null;
        if (schema == null) {
            respond(exchange, 404, "{\"error_code\":40403,\"message\":\"Schema " + id + " not found\"}");
        } else {
            respond(exchange, 200, new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(
                    Map.of("schema", schema)));
        }
    }

    private synchronized void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = URLDecoder.decode(exchange.getRequestURI().getRawPath(), StandardCharsets.UTF_8);
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        requests.add(new Request(exchange.getRequestMethod(), path, authorization, body));
        if (refused(exchange, authorization)) {
            return;
        }
        if (!exchange.getRequestMethod().equals("POST")) {
            respond(exchange, 405, "{\"error_code\":405,\"message\":\"Method not allowed\"}");
            return;
        }
        String rest = path.substring("/subjects/".length());
        boolean register = rest.endsWith("/versions");
        String subject = register ? rest.substring(0, rest.length() - "/versions".length()) : rest;
        // the body is {"schema": "<schema json>"}: parse the outer JSON with Avro's parser trick-free
        String schemaText = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).get("schema").asText();
        String canonical = new Schema.Parser().parse(schemaText).toString();
        if (register) {
            int id = idsBySchema.computeIfAbsent(canonical, s -> 100 + idsBySchema.size());
            subjects.computeIfAbsent(subject, s -> new HashMap<>()).put(canonical, id);
            respond(exchange, 200, "{\"id\":" + id + "}");
        } else {
            Integer id = subjects.getOrDefault(subject, Map.of()).get(canonical);
            if (id == null) {
                respond(exchange, 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
            } else {
                respond(exchange, 200, "{\"subject\":\"" + subject + "\",\"version\":1,\"id\":" + id
                        + ",\"schema\":\"...\"}");
            }
        }
    }

    /** Answers an injected failure or a missing authorization, if due; true if it answered. */
    private boolean refused(HttpExchange exchange, String authorization) throws IOException {
        if (failuresLeft > 0) {
            failuresLeft--;
            respond(exchange, failureStatus, "{\"error_code\":" + failureStatus + ",\"message\":\"injected\"}");
            return true;
        }
        if (requiredAuthorization != null && !requiredAuthorization.equals(authorization)) {
            respond(exchange, 401, "{\"error_code\":401,\"message\":\"Unauthorized\"}");
            return true;
        }
        return false;
    }

    private static void respond(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        stop();
    }
}
