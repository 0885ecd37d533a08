package io.columnarkafka.format.avro.parity;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * A small in-process schema registry following the Confluent Schema Registry REST contract for the two
 * calls a producer makes: {@code POST /subjects/{subject}/versions} (register; {@code {"id": N}}, the same id
 * for the same schema) and {@code POST /subjects/{subject}} (look up; 404 with error 40403 when the subject
 * lacks the schema). Requests are parsed with Avro's own schema parser; every request is recorded.
 * Public: the flink module's broker test of {@code avro-confluent} registers through it too.
 */
public final class TestSchemaRegistry implements AutoCloseable {
    /** One request: method, decoded path, Authorization header, body. */
    public record Request(String method, String path, String authorization, String body) {}

    private final HttpServer server;
    private final Map<String, Integer> idsBySchema = new HashMap<>();
    private final Map<String, Map<String, Integer>> subjects = new HashMap<>();
    private final List<Request> requests = new ArrayList<>();
    private final String requiredAuthorization;

    public TestSchemaRegistry(String requiredAuthorization) throws IOException {
        this.requiredAuthorization = requiredAuthorization;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/subjects/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
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

    private synchronized void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = URLDecoder.decode(exchange.getRequestURI().getRawPath(), StandardCharsets.UTF_8);
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        requests.add(new Request(exchange.getRequestMethod(), path, authorization, body));
        if (requiredAuthorization != null && !requiredAuthorization.equals(authorization)) {
            respond(exchange, 401, "{\"error_code\":401,\"message\":\"Unauthorized\"}");
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
        server.stop(0);
    }
}
