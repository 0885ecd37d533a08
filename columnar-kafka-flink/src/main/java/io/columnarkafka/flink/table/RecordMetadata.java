package io.columnarkafka.flink.table;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Reads the writable metadata columns ({@code timestamp}, {@code headers}) of a consumed row as Flink's
 * Kafka table sink does: a null column means no timestamp / no headers, and header entries with a null
 * key or value are skipped.
 */
final class RecordMetadata implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int timestampPosition;
    private final int headersPosition;

    RecordMetadata(int timestampPosition, int headersPosition) {
        this.timestampPosition = timestampPosition;
        this.headersPosition = headersPosition;
    }

    boolean hasTimestamp() {
        return timestampPosition >= 0;
    }

    boolean hasHeaders() {
        return headersPosition >= 0;
    }

    /** Epoch millis, or null. */
    Long timestamp(RowData row) {
        if (timestampPosition < 0 || row.isNullAt(timestampPosition)) {
            return null;
        }
        return row.getTimestamp(timestampPosition, 3).getMillisecond();
    }

    /** The headers in map order, or an empty list. */
    List<Header> headers(RowData row) {
        if (headersPosition < 0 || row.isNullAt(headersPosition)) {
            return List.of();
        }
        MapData map = row.getMap(headersPosition);
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        List<Header> headers = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            if (!keys.isNullAt(i) && !values.isNullAt(i)) {
                headers.add(new RecordHeader(keys.getString(i).toString(), values.getBinary(i)));
            }
        }
        return headers;
    }
}
