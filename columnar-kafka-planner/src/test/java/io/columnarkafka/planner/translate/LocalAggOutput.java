package io.columnarkafka.planner.translate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.dataview.MapView;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRawValueData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.ExternalSerializer;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RawType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.StructuredType;
import org.apache.flink.util.InstantiationUtil;

/**
 * What a local aggregate emitted, as text to compare with another's: each row's bytes as the exchange behind it
 * serializes them (the row itself when it is a {@link BinaryRowData}, else Flink's {@link
 * RowDataSerializer#toBinaryRow} of it), in hex, after its kind and fields; watermarks as W + time.
 *
 * <p>A RAW field (a distinct accumulator's {@code MapView}, or the one in a retracting MAX's or MIN's structured
 * accumulator, a row within the row) is compared as its map, decoded by the field's own
 * serializer (Flink's {@code ExternalSerializer}): entries sorted, each key's and value's class with it, as the
 * global phase looks keys up by {@code equals} and casts the values. Its bytes are left out of the hex (zeroed) when
 * the map has more than one entry: the vectorised operator writes the entries in its groups' order, Flink in its
 * {@code HashMap}'s, which depends on the keys' hashes, the table's capacity and, in a bin of colliding keys, on
 * insertion order or a red-black tree's, and is not worth matching: the global phase reads the bytes back into a
 * {@code HashMap} and merges value by value ({@code DistinctAggCodeGen.merge}, {@code
 * MaxWithRetractAggFunction.merge}), so the order changes nothing. The
 * bytes themselves are still checked, whatever the order: they must be what Flink's serializer writes for a map of
 * the same entries in the same order (read from the bytes), which pins down every byte but the order.
 */
final class LocalAggOutput {
    private final RowType type;
    private final RowDataSerializer serializer;
    private final List<RowData.FieldGetter> getters = new ArrayList<>();
    private int rows;
    private int binaryRows;
    private int maps;
    private int mapsComparedWhole;
    private int nullKeys;

    LocalAggOutput(RowType type) {
        this.type = type;
        this.serializer = new RowDataSerializer(type);
        for (int i = 0; i < type.getFieldCount(); i++) {
            getters.add(RowData.createFieldGetter(type.getTypeAt(i), i));
        }
    }

    /** Moves the harness's output into {@code emitted}. */
    @SuppressWarnings("rawtypes")
    void drain(OneInputStreamOperatorTestHarness harness, List<String> emitted) throws IOException {
        Object element;
        while ((element = harness.getOutput().poll()) != null) {
            emitted.add(element instanceof Watermark w ? "W" + w.getTimestamp()
                    : text((RowData) ((StreamRecord<?>) element).getValue()));
        }
    }

    private String text(RowData row) throws IOException {
        rows++;
        binaryRows += row instanceof BinaryRowData ? 1 : 0;
        BinaryRowData binary = serializer.toBinaryRow(row);
        byte[] bytes = BinarySegmentUtils.copyToBytes(binary.getSegments(), binary.getOffset(),
                binary.getSizeInBytes());
        List<Object> fields = new ArrayList<>();
        for (int i = 0; i < getters.size(); i++) {
            LogicalType fieldType = type.getTypeAt(i);
            if (binary.isNullAt(i)) {
                fields.add(null);
            } else if (fieldType instanceof RawType<?> raw) {
                fields.add(view(bytes, binary, 0, i, raw));
            } else if (fieldType instanceof StructuredType structured) {
                // a retracting MAX's or MIN's accumulator: its value, mapSize and MapView, a row within the row
                int nestedOffset = (int) (binary.getLong(i) >>> 32);
                RowData nested = binary.getRow(i, structured.getChildren().size());
                List<Object> parts = new ArrayList<>();
                for (int f = 0; f < structured.getChildren().size(); f++) {
                    LogicalType part = structured.getChildren().get(f);
                    parts.add(part instanceof RawType<?> raw && !nested.isNullAt(f)
                            ? view(bytes, nested, nestedOffset, f, raw)
                            : RowData.createFieldGetter(part, f).getFieldOrNull(nested));
                }
                fields.add(parts);
            } else {
                // as the exchange carries it: a TIMESTAMP(3) of Flink's row may hold nanos its binary row drops
                fields.add(getters.get(i).getFieldOrNull(binary));
            }
        }
        return row.getRowKind().shortString() + fields + " " + HexFormat.of().formatHex(bytes);
    }

    /**
     * The map of RAW field {@code pos} of {@code row} (at {@code rowOffset} of {@code bytes}, the emitted row's), its
     * entries sorted; its bytes zeroed in {@code bytes} when it has more than one entry.
     */
    private List<String> view(byte[] bytes, RowData row, int rowOffset, int pos, RawType<?> raw)
            throws IOException {
        long offsetAndSize = row.getLong(pos);
        int offset = rowOffset + (int) (offsetAndSize >>> 32);
        byte[] field = Arrays.copyOfRange(bytes, offset, offset + (int) offsetAndSize);
        Map<?, ?> map = map(field, raw);
        maps++;
        nullKeys += map.containsKey(null) ? 1 : 0;
        if (map.size() > 1) {
            Arrays.fill(bytes, offset, offset + field.length, (byte) 0);
        } else {
            mapsComparedWhole++;
        }
        return map.entrySet().stream().map(e -> classAndValue(e.getKey()) + "=" + classAndValue(e.getValue()))
                .sorted().toList();
    }

    /**
     * The map of a RAW field's bytes, decoded by the field's serializer, after asserting that the serializer writes
     * those bytes for the same entries in the order the bytes hold them.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Map<?, ?> map(byte[] field, RawType<?> raw) throws IOException {
        ExternalSerializer serializer = (ExternalSerializer) raw.getTypeSerializer();
        StructuredType view = (StructuredType) serializer.getDataType().getLogicalType();
        MapType mapType = (MapType) view.getAttributes().get(0).getType();
        RowData viewRow = new RowDataSerializer(mapType).deserialize(new DataInputDeserializer(field));
        MapData entries = viewRow.getMap(0);
        ArrayData.ElementGetter keys = ArrayData.createElementGetter(mapType.getKeyType());
        ArrayData.ElementGetter values = ArrayData.createElementGetter(mapType.getValueType());
        boolean counts = mapType.getValueType().is(LogicalTypeRoot.ARRAY);
        Map<Object, Object> inOrder = new LinkedHashMap<>();
        for (int e = 0; e < entries.size(); e++) {
            Object value = values.getElementOrNull(entries.valueArray(), e);
            inOrder.put(keys.getElementOrNull(entries.keyArray(), e),
                    counts ? ((ArrayData) value).toLongArray() : value);
        }
        MapView<Object, Object> same = new MapView<>();
        same.setMap(inOrder);
        assertThat(InstantiationUtil.serializeToByteArray(serializer, same))
                .as("Flink's serializer of the same entries in the same order").isEqualTo(field);
        return ((MapView<?, ?>) BinaryRawValueData.fromBytes(field).toObject(serializer)).getMap();
    }

    private static String classAndValue(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName() + ":"
                + (value instanceof long[] counts ? Arrays.toString(counts) : value);
    }

    RowType type() {
        return type;
    }

    /** Rows drained. */
    int rows() {
        return rows;
    }

    /** Rows drained that were {@link BinaryRowData}: the exchange's serializer copies them as they are. */
    int binaryRows() {
        return binaryRows;
    }

    /** RAW fields (distinct accumulators) compared as maps, their bytes checked against Flink's serializer. */
    int maps() {
        return maps;
    }

    /** RAW fields of at most one entry: compared byte for byte with the other operator's too. */
    int mapsComparedWhole() {
        return mapsComparedWhole;
    }

    /** RAW fields whose map had a null key. */
    int nullKeys() {
        return nullKeys;
    }
}
