package io.columnarkafka.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A schema registry on the loopback interface that answers every Confluent registration or look-up ({@code
 * POST /subjects/...}) with one fixed id, so that {@code avro-confluent}'s columnar encoder learns its id
 * once, at setup, as it would from a real registry, and the benchmark needs no registry process; given a
 * schema, it also answers that id's look-up ({@code GET /schemas/ids/{id}}), which the columnar decoder makes
 * once per id. The registry contract itself is tested in the format module, against a registry that keeps
 * subjects.
 */
final class ConstantSchemaRegistry implements AutoCloseable {
    private final HttpServer server;
    private final byte[] answer;

    ConstantSchemaRegistry(int id) throws IOException {
        this(id, null);
    }

    /** Answers {@code GET /schemas/ids/<id>} with {@code schema} (the Avro schema's JSON text) too, if not null. */
    ConstantSchemaRegistry(int id, String schema) throws IOException {
        answer = ("{\"id\":" + id + "}").getBytes(StandardCharsets.UTF_8);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/subjects/", this::handle);
        if (schema != null) {
            byte[] text = ("{\"schema\":\"" + schema.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            String path = "/schemas/ids/" + id;
            server.createContext("/schemas/ids/", exchange -> reply(exchange,
                    exchange.getRequestURI().getPath().equals(path) ? 200 : 404, text));
        }
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        reply(exchange, exchange.getRequestMethod().equals("POST") ? 200 : 405, answer);
    }

    private static void reply(HttpExchange exchange, int status, byte[] answer) throws IOException {
        exchange.getRequestBody().readAllBytes();
        exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
        exchange.sendResponseHeaders(status, answer.length);
        try (OutputStream body = exchange.getResponseBody()) {
            body.write(answer);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
