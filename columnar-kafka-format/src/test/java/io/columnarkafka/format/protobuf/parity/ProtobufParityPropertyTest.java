package io.columnarkafka.format.protobuf.parity;

import com.google.protobuf.Descriptors.Descriptor;
import io.columnarkafka.format.parity.ParityCheck;
import io.columnarkafka.format.protobuf.testmsg.Choice3;
import io.columnarkafka.format.protobuf.testmsg.Maps3;
import io.columnarkafka.format.protobuf.testmsg.Outer3;
import io.columnarkafka.format.protobuf.testmsg.Repeated3;
import io.columnarkafka.format.protobuf.testmsg.Scalars3;
import io.columnarkafka.format.protobuf.testmsg2.Proto2Messages;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.assertj.core.api.Assertions;

/**
 * Random batches for random projections (field subsets in random order, nested likewise, enums by name or
 * number) of the proto2 and proto3 test messages, each byte-identical to Flink's protobuf serializer under
 * a random {@code write-null-string-literal}. A seed replays a failing batch.
 */
class ProtobufParityPropertyTest {
    private static final ParityCheck PARITY = FlinkProtobufOracle.check();
    private static final List<Class<?>> MESSAGES = List.of(Scalars3.class, Repeated3.class, Maps3.class,
            Outer3.class, Choice3.class, Proto2Messages.Scalars2.class, Proto2Messages.Inner2.class);
    private static final List<String> NULL_LITERALS = List.of("", "null", "\u00e9\uD83D\uDE00");

    @Property(tries = 1000)
    void randomBatchesMatchFlink(@ForAll long seed) throws ReflectiveOperationException {
        Random random = new Random(seed);
        Class<?> message = MESSAGES.get(random.nextInt(MESSAGES.size()));
        Descriptor descriptor = (Descriptor) message.getMethod("getDescriptor").invoke(null);
        PbRows rows = new PbRows(seed);
        RowType type = rows.randomFields(descriptor);
        int count = random.nextInt(20);
        List<RowData> batch = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            batch.add(rows.row(descriptor, type));
        }
        Map<String, String> options = Map.of("message-class-name", message.getName(),
                "write-null-string-literal", NULL_LITERALS.get(random.nextInt(NULL_LITERALS.size())));
        Assertions.assertThat(PARITY.assertParity(type, batch, options)).isTrue();
    }
}
