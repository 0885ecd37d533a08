package io.columnarkafka.flink.table;

import java.util.Optional;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink.SinkRuntimeProvider;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;

/**
 * Flink's own runtime for a sink that was not admitted, unchanged except for the sink operator's name,
 * which carries the fallback reason so that {@code EXPLAIN} (with the JSON execution plan) and the web UI
 * show it. Flink's {@link SinkV2Provider} sink is attached with {@code sinkTo}, as the planner does.
 */
final class FallbackProvider {
    private FallbackProvider() {}

    static SinkRuntimeProvider named(SinkRuntimeProvider flink, String name) {
        if (flink instanceof SinkV2Provider v2) {
            return new DataStreamSinkProvider() {
                @Override
                public DataStreamSink<?> consumeDataStream(ProviderContext context, DataStream<RowData> rows) {
                    DataStreamSink<RowData> end = rows.sinkTo(v2.createSink()).name(name);
                    end.setParallelism(v2.getParallelism().orElse(rows.getParallelism()));
                    context.generateUid(ColumnarSinkTranslator.WRITER_UID).ifPresent(end::uid);
                    return end;
                }

                @Override
                public Optional<Integer> getParallelism() {
                    return v2.getParallelism();
                }
            };
        }
        if (flink instanceof DataStreamSinkProvider stream) {
            return new DataStreamSinkProvider() {
                @Override
                public DataStreamSink<?> consumeDataStream(ProviderContext context, DataStream<RowData> rows) {
                    return stream.consumeDataStream(context, rows).name(name);
                }

                @Override
                public Optional<Integer> getParallelism() {
                    return stream.getParallelism();
                }
            };
        }
        return flink;
    }
}
